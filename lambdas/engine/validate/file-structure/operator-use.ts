/**
 * Operators each content stream uses (owned by the file-structure area):
 * operators ISO 32000 does not define, q/Q nesting depth, inline image
 * filters, and named resources used without (or beyond) a stream's own
 * Resources. Operand values are judged on the raw bytes (content-values.ts):
 * the lexer no longer knows how a number or string was written.
 *
 * Everything is wrapped: a collector that throws would break every area's pass.
 */
import { PDFName, type PDFDict, type PDFStream } from '@cantoo/pdf-lib';
import type { Operand, Operation } from '../../core/content-lexer';
import type { ObservedStream } from '../../core/interpret/observer';
import type { Within } from '../../core/interpret/types';
import { inheritedResources } from '../../core/page-content';
import { getDict, name as pdfName } from '../../core/pdf-objects';
import type { ContentCollector } from '../content-collector';

/** Every operator of ISO 32000-1 Table A.1 (ISO 32000-2 defines the same set). */
export const KNOWN_OPERATORS: ReadonlySet<string> = new Set(
  (
    'b B b* B* BDC BI BMC BT BX c cm CS cs d d0 d1 Do DP EI EMC ET EX f F f* G g gs h i ID j J K k l m M MP n q Q re RG rg ri s S SC sc SCN scn sh T* Tc Td TD Tf Tj TJ TL Tm Tr Ts Tw Tz v w W W* y \' "'
  ).split(' '),
);

/** Where in the document an operation was seen. */
export interface OperationSite {
  page: number;
  /** The nested stream (form, pattern, glyph, soft mask, appearance), or null for the page's own content. */
  stream: PDFStream | null;
  within: string;
}

export interface UnknownOperator extends OperationSite {
  operator: string;
}

export interface InlineImageFilters extends OperationSite {
  /** Filter names of the inline image (F or Filter, abbreviations as written). */
  filters: string[];
}

export interface ResourceUse extends OperationSite {
  category: string;
  name: string;
}

export interface OperatorUseFacts {
  /**
   * Names a stream's own resources do not define but the page's do: a nested
   * stream (form, pattern, glyph, appearance, soft mask) falling back on the
   * page, or page content whose Resources come from the page tree.
   */
  inheritedResources: ResourceUse[];
  /** Names neither the stream's own resources nor the page's define. */
  undefinedResources: ResourceUse[];
  unknownOperators: UnknownOperator[];
  /** Deepest q nesting seen, and where. */
  maxDepth: number;
  deepest: OperationSite | null;
  inlineImages: InlineImageFilters[];
}

const MAX_KEPT = 50;

export const operatorUse: ContentCollector<OperatorUseFacts> = {
  label: 'operatorUse',
  create: () => {
    const facts: OperatorUseFacts = { inheritedResources: [], undefinedResources: [], unknownOperators: [], maxDepth: 0, deepest: null, inlineImages: [] };
    let page = 0;
    /** The page's resources (own or from the page tree), and whether they come from the page tree. */
    let pageResources: PDFDict | undefined;
    let pageInherits = false;
    /** Nested streams being run, innermost last, each with the q depth it started at and its own resources. */
    const streams: { stream: PDFStream; within: string; depth: number; own: PDFDict | undefined }[] = [];
    let depth = 0;
    const site = (within: string): OperationSite => ({ page, stream: streams[streams.length - 1]?.stream ?? null, within });

    return {
      startPage(p: number, node: PDFDict) {
        page = p;
        depth = 0;
        streams.length = 0;
        pageResources = inheritedResources(node);
        pageInherits = !node.has(PDFName.of('Resources'));
      },
      enterStream(stream: PDFStream, kind: Within, at: ObservedStream) {
        streams.push({ stream, within: kind, depth, own: ownResources(stream, kind, at) });
        // Each content stream's q/Q pairs nest on their own.
        depth = 0;
      },
      leaveStream() {
        const left = streams.pop();
        if (left) depth = left.depth;
      },
      operation(at: ObservedStream, op: Operation) {
        try {
          const within = at.frame.within;
          const o = op.op;
          if (o === 'q') {
            depth++;
            if (depth > facts.maxDepth) {
              facts.maxDepth = depth;
              facts.deepest = site(within);
            }
          } else if (o === 'Q') {
            if (depth > 0) depth--;
          } else if (!KNOWN_OPERATORS.has(o)) {
            if (facts.unknownOperators.length < MAX_KEPT) facts.unknownOperators.push({ ...site(within), operator: o });
          }
          if (o === 'BI') {
            const dict = op.operands[0];
            if (dict && typeof dict === 'object' && 'dict' in dict) {
              const f = dict.dict['F'] ?? dict.dict['Filter'];
              const filters = filterNames(f);
              if (filters.length > 0 && facts.inlineImages.length < MAX_KEPT) facts.inlineImages.push({ ...site(within), filters });
            }
          }
          const named = resourceNamed(op);
          if (named) {
            const top = streams[streams.length - 1];
            const own = top ? defines(top.own, named) : defines(pageResources, named) && !pageInherits;
            if (!own) {
              const use = { ...site(within), category: named.category, name: named.name };
              const list = defines(pageResources, named) ? facts.inheritedResources : facts.undefinedResources;
              if (list.length < MAX_KEPT) list.push(use);
            }
          }
        } catch {
          // Observing must never break the content pass.
        }
      },
      result: () => facts,
    };
  },
};

/**
 * The resources a nested stream itself brings, as ISO 32000 7.8.3 associates
 * them: a form's, pattern's or appearance's own Resources, a Type 3 glyph's
 * font's Resources (or, before PDF 2.0, the glyph stream's own). A name they
 * lack is resolved from the page's resources (as a reader falling back would,
 * and as veraPDF does: its PDResourcesHandler looks in the object's resources,
 * then the page's, and calls the name inherited when the page had it), never
 * from an enclosing form's.
 */
function ownResources(stream: PDFStream, kind: Within, at: ObservedStream): PDFDict | undefined {
  const own = getDict(stream.dict, 'Resources');
  if (own || kind !== 'type3') return own;
  return at.gs.font?.type3?.resources;
}

function defines(resources: PDFDict | undefined, named: { category: Category; name: string }): boolean {
  return getDict(resources, named.category)?.has(pdfName(named.name)) ?? false;
}

type Category = 'Font' | 'XObject' | 'ExtGState' | 'ColorSpace' | 'Pattern' | 'Shading' | 'Properties';
const DEVICE_SPACES = new Set(['DeviceGray', 'DeviceRGB', 'DeviceCMYK', 'Pattern']);
const INLINE_ABBREVIATIONS = new Set(['G', 'RGB', 'CMYK', 'I', 'Indexed']);

/** The named resource an operation refers to, if any. */
function resourceNamed(op: Operation): { category: Category; name: string } | null {
  const a = op.operands;
  const nameAt = (i: number): string | null => {
    const x = a[i];
    return x && typeof x === 'object' && 'name' in x ? x.name : null;
  };
  let n: string | null;
  switch (op.op) {
    case 'Tf':
      return (n = nameAt(0)) ? { category: 'Font', name: n } : null;
    case 'Do':
      return (n = nameAt(0)) ? { category: 'XObject', name: n } : null;
    case 'gs':
      return (n = nameAt(0)) ? { category: 'ExtGState', name: n } : null;
    case 'sh':
      return (n = nameAt(0)) ? { category: 'Shading', name: n } : null;
    case 'cs':
    case 'CS':
      return (n = nameAt(0)) && !DEVICE_SPACES.has(n) ? { category: 'ColorSpace', name: n } : null;
    case 'scn':
    case 'SCN':
      return (n = nameAt(a.length - 1)) ? { category: 'Pattern', name: n } : null;
    case 'BDC':
    case 'DP':
      return (n = nameAt(1)) ? { category: 'Properties', name: n } : null;
    case 'BI': {
      // An inline image's colour space may name a ColorSpace resource (ISO 32000 8.9.7); abbreviations and device names are not resources.
      const d = a[0];
      const cs = d && typeof d === 'object' && 'dict' in d ? (d.dict['ColorSpace'] ?? d.dict['CS']) : undefined;
      n = cs && typeof cs === 'object' && 'name' in cs ? cs.name : null;
      return n && !DEVICE_SPACES.has(n) && !INLINE_ABBREVIATIONS.has(n) ? { category: 'ColorSpace', name: n } : null;
    }
    default:
      return null;
  }
}

function filterNames(f: Operand | undefined): string[] {
  if (f && typeof f === 'object' && 'name' in f) return [f.name];
  if (Array.isArray(f)) return f.flatMap((x) => (x && typeof x === 'object' && 'name' in x ? [x.name] : ['?']));
  return [];
}
