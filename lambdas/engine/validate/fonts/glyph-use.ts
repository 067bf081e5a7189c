/**
 * Glyph codes each font shows, watched during the one content pass
 * (content-pass.ts). Font rules judge only what is drawn: embedding, widths
 * and glyph presence concern codes shown in a rendering mode other than 3
 * (invisible); .notdef and Unicode mapping concern every code shown.
 *
 * Codes are split as readers split them: one byte for simple and Type 3
 * fonts, a Type 0 font's CMap codespace otherwise (the interpreter's
 * FontMetrics.codeSpace). Marked-content sequences are followed so that a
 * code shown inside a span with ActualText is known to be covered by it
 * (PDF/A-2 level A, 6.2.11.7.3), and ActualText strings given in property
 * lists are kept for the Private Use Area check of PDF/A-4 (6.2.10.8).
 * PDF/UA-2 (8.4.3) asks the same of real content with ActualText or Alt, so
 * Artifact sequences and Alt are followed too, and Alt strings kept.
 */
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFString } from '@cantoo/pdf-lib';
import { isName, type Operand, type Operation } from '../../core/content-lexer';
import { readCode } from '../../core/interpret/code-space';
import { name } from '../../core/pdf-objects';
import type { ObservedStream } from '../../core/interpret/observer';
import type { ContentCollector } from '../content-collector';
import type { ValidationModel } from '../model';

/** Bits kept per code shown. */
export const SHOWN = 1;
/** Shown in a rendering mode other than 3. */
export const VISIBLE = 2;
/** Shown at least once outside any marked-content sequence carrying ActualText. */
export const NO_ACTUAL_TEXT = 4;
/**
 * Shown at least once as real content (page or form content, outside any Artifact sequence or Artifact structure element)
 * with neither ActualText nor Alt on an enclosing sequence or owning structure element (PDF/UA-2 8.4.3).
 */
export const NO_ALTERNATIVE = 8;

/** Flags of an open marked-content sequence (or of the structure element owning it). */
const COVER_ACTUAL_TEXT = 1;
const COVER_ALT = 2;
const ARTIFACT = 4;

export interface FontGlyphUse {
  /** Code → bit set (SHOWN | VISIBLE | NO_ACTUAL_TEXT). */
  codes: Map<number, number>;
  /** Page each code was first shown on. */
  firstPage: Map<number, number>;
  /** Object number of the font dictionary when the interpreter knew it. */
  objectNumber: number | null;
}

export interface GlyphUseFacts {
  fonts: Map<PDFDict, FontGlyphUse>;
  /** ActualText values of marked-content property lists (decoded text, with the page). */
  actualTexts: { text: string; page: number }[];
  /** Alt values of marked-content property lists (decoded text, with the page). */
  altTexts: { text: string; page: number }[];
}

/** More distinct codes than a font can have are junk; stop recording (a 4-byte CMap could otherwise grow without bound). */
const MAX_CODES_PER_FONT = 70000;
const MAX_ACTUAL_TEXTS = 10000;
const MAX_STRUCT_ELEMENTS = 200000;

export const glyphUse: ContentCollector<GlyphUseFacts> = {
  label: 'glyphUse',
  create: (m) => {
    let covered: Map<PDFDict, Map<number, number>> | null = null;
    let page: PDFDict | undefined;
    const structureCovers = (mcid: number): number => {
      covered ??= actualTextMcids(m);
      return page !== undefined ? covered.get(page)?.get(mcid) ?? 0 : 0;
    };
    const fonts = new Map<PDFDict, FontGlyphUse>();
    const actualTexts: { text: string; page: number }[] = [];
    const altTexts: { text: string; page: number }[] = [];
    // Per stream nesting: marked content does not cross stream boundaries, so each stream gets its own stack (of COVER_* / ARTIFACT flags).
    const stacks: number[][] = [[]];
    const code = { code: 0, length: 0 };

    // A form or glyph procedure run inside an ActualText span of the stream that invokes it is part of that span.
    const openFlags = (): number => {
      let f = 0;
      for (const s of stacks) for (const flags of s) f |= flags;
      return f;
    };

    const show = (at: ObservedStream, bytes: Uint8Array, flags: number): void => {
      const font = at.gs.font;
      if (!font) return;
      let use = fonts.get(font.dict);
      if (!use) {
        use = { codes: new Map(), firstPage: new Map(), objectNumber: at.gs.fontObjectNumber };
        fonts.set(font.dict, use);
      }
      // Annotation appearances belong to their annotation (its own Contents / structure), not to the page's real content.
      const real = !(flags & ARTIFACT) && at.frame.within !== 'annotation';
      const bits = SHOWN | (at.gs.render !== 3 ? VISIBLE : 0) | (flags & COVER_ACTUAL_TEXT ? 0 : NO_ACTUAL_TEXT) | (real && !(flags & (COVER_ACTUAL_TEXT | COVER_ALT)) ? NO_ALTERNATIVE : 0);
      const cid = font.kind === 'cid';
      for (let i = 0; i < bytes.length; ) {
        let c: number;
        if (cid) {
          readCode(bytes, i, font.codeSpace, code);
          c = code.code;
          i += Math.max(1, code.length);
        } else {
          c = bytes[i]!;
          i++;
        }
        const prev = use.codes.get(c);
        if (prev === undefined) {
          if (use.codes.size >= MAX_CODES_PER_FONT) continue;
          use.firstPage.set(c, at.pageNumber);
        }
        use.codes.set(c, (prev ?? 0) | bits);
      }
    };

    const strings = (o: Operand | undefined, out: Uint8Array[]): void => {
      if (typeof o === 'object' && o !== null && 'bytes' in o) out.push(o.bytes);
      else if (Array.isArray(o)) for (const x of o) strings(x, out);
    };

    return {
      startPage(_n: number, node: PDFDict) {
        page = node;
      },
      enterStream() {
        stacks.push([]);
      },
      leaveStream() {
        if (stacks.length > 1) stacks.pop();
      },
      operation(at: ObservedStream, op: Operation) {
        try {
          switch (op.op) {
            case 'Tj':
            case 'TJ':
            case "'":
            case '"': {
              const found: Uint8Array[] = [];
              strings(op.op === '"' ? op.operands[2] : op.operands[0], found);
              const flags = openFlags();
              for (const b of found) show(at, b, flags);
              break;
            }
            case 'BMC':
              stacks[stacks.length - 1]!.push(isArtifactTag(op.operands[0]) ? ARTIFACT : 0);
              break;
            case 'BDC': {
              const text = actualText(at, op.operands[1]);
              if (text !== null && actualTexts.length < MAX_ACTUAL_TEXTS) actualTexts.push({ text, page: at.pageNumber });
              const alt = propertyText(at, op.operands[1], 'Alt');
              if (alt !== null && altTexts.length < MAX_ACTUAL_TEXTS) altTexts.push({ text: alt, page: at.pageNumber });
              // ActualText (or Alt) may also sit on the structure element that owns this sequence (through its MCID), or on an ancestor.
              const mcid = markedContentId(at, op.operands[1]);
              const fromStructure = mcid !== null && at.frame.within === 'page' ? structureCovers(mcid) : 0;
              const own = (text !== null ? COVER_ACTUAL_TEXT : 0) | (alt !== null ? COVER_ALT : 0) | (isArtifactTag(op.operands[0]) ? ARTIFACT : 0);
              stacks[stacks.length - 1]!.push(own | fromStructure);
              break;
            }
            case 'EMC':
              stacks[stacks.length - 1]!.pop();
              break;
          }
        } catch {
          // A malformed operation is the file-structure area's finding, not a reason to stop watching.
        }
      },
      result: () => ({ fonts, actualTexts, altTexts }),
    };
  },
};

function markedContentId(at: ObservedStream, props: Operand | undefined): number | null {
  if (typeof props === 'object' && props !== null && 'dict' in props) {
    const v = props.dict['MCID'];
    return typeof v === 'number' ? v : null;
  }
  if (isName(props)) {
    const { obj } = at.resource('Properties', props.name);
    const v = obj instanceof PDFDict ? obj.lookup(name('MCID')) : undefined;
    return v instanceof PDFNumber ? v.asNumber() : null;
  }
  return null;
}

const isArtifactTag = (o: Operand | undefined): boolean => isName(o) && o.name === 'Artifact';

/**
 * Page → MCID → what its structure element, or an ancestor of it, gives: ActualText (COVER_ACTUAL_TEXT), Alt (COVER_ALT), an
 * Artifact type (ARTIFACT, PDF 2.0). MCIDs nothing covers are left out. Bounded walk of the structure tree.
 */
function actualTextMcids(m: ValidationModel): Map<PDFDict, Map<number, number>> {
  const out = new Map<PDFDict, Map<number, number>>();
  try {
    const root = m.catalog.lookup(name('StructTreeRoot'));
    if (!(root instanceof PDFDict)) return out;
    const seen = new Set<PDFDict>();
    const add = (pg: PDFDict | undefined, mcid: number, flags: number): void => {
      if (!pg) return;
      let set = out.get(pg);
      if (!set) out.set(pg, (set = new Map()));
      set.set(mcid, (set.get(mcid) ?? 0) | flags);
    };
    const stack: { node: unknown; pg: PDFDict | undefined; covered: number }[] = [{ node: root.lookup(name('K')), pg: undefined, covered: 0 }];
    while (stack.length > 0 && seen.size < MAX_STRUCT_ELEMENTS) {
      const { node, pg, covered } = stack.pop()!;
      if (node instanceof PDFArray) {
        for (let i = 0; i < node.size(); i++) stack.push({ node: node.lookup(i), pg, covered });
      } else if (node instanceof PDFNumber) {
        if (covered) add(pg, node.asNumber(), covered);
      } else if (node instanceof PDFDict && !seen.has(node)) {
        seen.add(node);
        const ownPg = node.lookup(name('Pg'));
        const page = ownPg instanceof PDFDict ? ownPg : pg;
        const type = node.lookup(name('Type'));
        if (type instanceof PDFName && type.decodeText() === 'MCR') {
          const id = node.lookup(name('MCID'));
          if (covered && id instanceof PDFNumber) add(page, id.asNumber(), covered);
          continue;
        }
        const isText = (v: unknown): boolean => v instanceof PDFString || v instanceof PDFHexString;
        const s = node.lookup(name('S'));
        const own =
          (isText(node.lookup(name('ActualText'))) ? COVER_ACTUAL_TEXT : 0) |
          (isText(node.lookup(name('Alt'))) ? COVER_ALT : 0) |
          (s instanceof PDFName && s.decodeText() === 'Artifact' ? ARTIFACT : 0);
        stack.push({ node: node.lookup(name('K')), pg: page, covered: covered | own });
      }
    }
  } catch {
    // A broken structure tree covers nothing.
  }
  return out;
}

/** The ActualText of a BDC property list (inline, or named in the Properties resources), decoded; null when none. */
function actualText(at: ObservedStream, props: Operand | undefined): string | null {
  if (typeof props === 'object' && props !== null && 'dict' in props) {
    const v = props.dict['ActualText'];
    if (typeof v === 'object' && v !== null && 'bytes' in v) return decodeTextString(v.bytes);
    return null;
  }
  if (isName(props)) {
    const { obj } = at.resource('Properties', props.name);
    return obj instanceof PDFDict ? propertyActualText(obj) : null;
  }
  return null;
}

/** A text entry (Alt, ActualText) of a BDC property list, inline or named in the Properties resources, decoded; null when none. */
function propertyText(at: ObservedStream, props: Operand | undefined, key: 'Alt' | 'ActualText'): string | null {
  if (typeof props === 'object' && props !== null && 'dict' in props) {
    const v = props.dict[key];
    return typeof v === 'object' && v !== null && 'bytes' in v ? decodeTextString(v.bytes) : null;
  }
  if (isName(props)) {
    const { obj } = at.resource('Properties', props.name);
    return obj instanceof PDFDict ? propertyActualText(obj, key) : null;
  }
  return null;
}

function propertyActualText(dict: PDFDict, key: 'Alt' | 'ActualText' = 'ActualText'): string | null {
  try {
    const v = dict.lookup(name(key));
    if (v instanceof PDFString || v instanceof PDFHexString) return v.decodeText();
  } catch {
    // Not a dictionary after all.
  }
  return null;
}

/** PDF text string (ISO 32000-1 7.9.2.2): UTF-16BE with a BOM, else PDFDocEncoding (close enough to Latin-1 for a PUA check). */
export function decodeTextString(b: Uint8Array): string {
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) {
    let s = '';
    for (let i = 2; i + 1 < b.length; i += 2) s += String.fromCharCode((b[i]! << 8) | b[i + 1]!);
    return s;
  }
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return new TextDecoder().decode(b.subarray(3));
  let s = '';
  for (const x of b) s += String.fromCharCode(x);
  return s;
}
