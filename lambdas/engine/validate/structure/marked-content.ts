/**
 * Marked-content sequences as the content pass meets them (ISO 32000-1 14.6,
 * 14.7.4 / 14.8.2.2): for every BMC/BDC the tag, its property list (inline or a
 * /Properties resource: MCID, Lang, ActualText, Alt, E) and what encloses it,
 * and for everything painted (text, paths, images, shadings) the innermost
 * context it is painted in. PDF/UA and PDF/A level a ask three things of that:
 *   - real content is tagged (inside a sequence whose MCID the ParentTree maps to
 *     a structure element) or marked as an Artifact, never both, never neither;
 *   - the natural language of every piece of text can be determined (a Lang on an
 *     enclosing sequence or on the structure element owning it, else the catalog);
 *   - every Lang of a property list is a language tag (collected for the rules).
 *
 * Context follows drawing, not streams: a form XObject painted with `Do` inherits
 * the sequences open at the `Do`, and MCIDs inside it belong to the form's own
 * StructParents when it has one (else to the page's). A form or image XObject
 * whose StructParent maps to a structure element is tagged as a whole (an OBJR
 * kid of that element), content in such a form included. Annotation appearances
 * belong to their annotation (its StructParent tags them), so they are read for
 * Lang values only. Patterns, Type 3 glyph procedures and soft masks paint no
 * content items of their own (the glyph is the text already counted; the pattern
 * fills a path counted in the stream that uses it).
 *
 * Memory is bounded: counts and a few examples per finding, distinct Lang values.
 * Nothing here throws into the content pass: every observer call is guarded.
 */
import { PDFArray, PDFDict, PDFNumber, PDFStream, type PDFObject } from '@cantoo/pdf-lib';
import type { Operand, Operation, PdfDictToken, PdfStringToken } from '../../core/content-lexer';
import { isName } from '../../core/content-lexer';
import type { Within } from '../../core/interpret/types';
import type { ObservedStream } from '../../core/interpret/observer';
import { getName, getNumber, getText, name, textOf } from '../../core/pdf-objects';
import type { ContentCollector } from '../content-collector';
import type { Example } from '../rule';
import { structTree, type StructElem } from './struct-tree';

/** Examples kept per finding. */
const MAX_EXAMPLES = 5;
/** Distinct property-list Lang values kept (with their first place). */
const MAX_LANGS = 200;
/** Open sequences followed per stream; deeper nesting is malformed beyond use. */
const MAX_NESTING = 256;

export type ContentKind = 'text' | 'path' | 'image' | 'inline image' | 'shading';

/** A count with the first few places it happened. */
export interface Finding {
  count: number;
  examples: Example[];
}

export interface PropertyLang {
  value: string;
  example: Example;
}

export interface MarkedContentFacts {
  /** BMC/BDC operators met in page content and forms. */
  sequences: number;
  /** Content items (text shows, path paints, images, shadings) in page content and forms. */
  contentItems: number;
  /** Content neither inside tagged content nor inside an Artifact sequence. */
  untagged: Finding;
  /** Artifact sequences opened inside tagged content. */
  artifactInTagged: Finding;
  /** Tagged sequences opened inside an Artifact sequence. */
  taggedInArtifact: Finding;
  /** Text shows whose language no enclosing sequence nor owning structure element gives (the catalog is not considered here). */
  textWithoutLang: Finding;
  /** Span sequences carrying ActualText / Alt / E whose language nothing gives (the catalog is not considered here). */
  spanTextWithoutLang: Record<'ActualText' | 'Alt' | 'E', Finding>;
  /** Distinct Lang values of property lists, everywhere (annotation appearances included). */
  propertyLangs: PropertyLang[];
  /** A collector failure: the facts above are partial. */
  error?: string;
}

/** The structure element owning a sequence's MCID (undefined when reached only through P), and the language it gives. */
interface Owner {
  element: StructElem | undefined;
  lang: string | undefined;
}

/** One open marked-content sequence. */
interface Sequence {
  tag: string;
  /** Tagged: this or an enclosing sequence belongs to the structure tree. */
  tagged: boolean;
  /** This or an enclosing sequence is an Artifact. */
  artifact: boolean;
  /** Language in effect: own Lang, else the owning element's, else the enclosing sequence's. */
  effectiveLang: string | undefined;
}

/** The sequences open in one stream being run; a form's starts with those open at its `Do`. */
interface StreamContext {
  kind: Within | 'page';
  /** Inside patterns, glyph procedures and soft masks nothing is judged. */
  judged: boolean;
  /** Annotation appearances: read for Lang values only. */
  annotation: boolean;
  structParents: number | undefined;
  open: Sequence[];
  /** Sequences inherited from the caller: an EMC in the form cannot close them. */
  inherited: number;
  /** Sequences opened beyond MAX_NESTING, not followed: their EMCs close nothing followed. */
  overflow: number;
  objectNumber: number | undefined;
}

const PAINT_PATH = new Set(['S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*']);
const SHOW_TEXT = new Set(['Tj', 'TJ', "'", '"']);

const finding = (): Finding => ({ count: 0, examples: [] });
/** Counts one occurrence; the example is built only while examples are still kept (files paint millions of items). */
function note(f: Finding, example: () => Example): void {
  f.count++;
  if (f.examples.length < MAX_EXAMPLES) f.examples.push(example());
}

/** A PDF text string from content-stream bytes: UTF-16BE with BOM, UTF-8 with BOM, else byte per character. */
export function decodeTextBytes(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    let s = '';
    for (let i = 2; i + 1 < bytes.length; i += 2) s += String.fromCharCode((bytes[i]! << 8) | bytes[i + 1]!);
    return s;
  }
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder().decode(bytes.subarray(3));
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

const isString = (o: Operand | undefined): o is PdfStringToken => typeof o === 'object' && o !== null && 'bytes' in o;
const isDictToken = (o: Operand | undefined): o is PdfDictToken => typeof o === 'object' && o !== null && 'dict' in o;

/** The entries of a property list this collector reads, from an inline dictionary or a resource. */
interface Props {
  mcid: number | undefined;
  lang: string | undefined;
  actualText: boolean;
  alt: boolean;
  e: boolean;
  objectNumber: number | undefined;
}

function propsOf(at: ObservedStream, operand: Operand | undefined): Props | undefined {
  if (isDictToken(operand)) {
    const d = operand.dict;
    const mcid = d.MCID;
    const lang = d.Lang;
    return {
      mcid: typeof mcid === 'number' && Number.isInteger(mcid) ? mcid : undefined,
      lang: isString(lang) ? decodeTextBytes(lang.bytes) : undefined,
      actualText: d.ActualText !== undefined,
      alt: d.Alt !== undefined,
      e: d.E !== undefined,
      objectNumber: undefined,
    };
  }
  if (isName(operand)) {
    const found = at.resource('Properties', operand.name);
    const obj: PDFObject | undefined = found.obj;
    const d = obj instanceof PDFDict ? obj : obj instanceof PDFStream ? obj.dict : undefined;
    if (!d) return undefined;
    const mcid = d.lookup(name('MCID'));
    const lang = d.lookup(name('Lang'));
    return {
      mcid: mcid instanceof PDFNumber && Number.isInteger(mcid.asNumber()) ? mcid.asNumber() : undefined,
      lang: textOf(lang),
      actualText: d.has(name('ActualText')),
      alt: d.has(name('Alt')),
      e: d.has(name('E')),
      objectNumber: found.objectNumber ?? undefined,
    };
  }
  return undefined;
}

/** The Lang of an element or of its nearest ancestor that has one. */
function inheritedLang(e: StructElem | undefined): string | undefined {
  for (let cur = e, n = 0; cur && n < 10_000; cur = cur.parent, n++) if (cur.lang !== undefined) return cur.lang;
  return undefined;
}

function describeContent(kind: ContentKind, at: ObservedStream): string {
  if (kind === 'text') return `text in font ${at.gs.font?.name ?? '(none)'}`;
  return kind;
}

export const markedContent: ContentCollector<MarkedContentFacts> = {
  label: 'markedContent',
  create: (m) => {
    const facts: MarkedContentFacts = {
      sequences: 0,
      contentItems: 0,
      untagged: finding(),
      artifactInTagged: finding(),
      taggedInArtifact: finding(),
      textWithoutLang: finding(),
      spanTextWithoutLang: { ActualText: finding(), Alt: finding(), E: finding() },
      propertyLangs: [],
    };
    const langsSeen = new Set<string>();
    let contexts: StreamContext[] = [];
    let tree: ReturnType<typeof structTree> | undefined | null;
    const treeOf = () => {
      if (tree === undefined) {
        try {
          tree = structTree(m);
        } catch {
          tree = null;
        }
      }
      return tree;
    };
    /** An XObject tagged as a whole (its StructParent maps to a structure element): the owner, else undefined. */
    const objectOwner = (d: PDFDict): Owner | undefined => {
      const sp = d.lookup(name('StructParent'));
      if (!(sp instanceof PDFNumber)) return undefined;
      const element = treeOf()?.parentTree.forObject(sp.asNumber());
      return element ? { element, lang: inheritedLang(element) } : undefined;
    };
    /**
     * The structure element owning an MCID of a stream (through the ParentTree) and
     * whether it belongs to the tree. An element the walk from the root reached is
     * in it; one reached only through the ParentTree is in it when its P chain leads
     * to the StructTreeRoot (a K array that omits it is the writer's slip, not
     * untagged content).
     */
    const ownerOf = (structParents: number | undefined, mcid: number | undefined): Owner | undefined => {
      if (structParents === undefined || mcid === undefined) return undefined;
      const tree = treeOf();
      if (!tree) return undefined;
      const element = tree.parentTree.forContent(structParents, mcid);
      if (element) return { element, lang: inheritedLang(element) };
      const entry = tree.parentTree.entries.get(structParents);
      const raw = entry instanceof PDFArray ? m.context.lookup(entry.get(mcid)) : undefined;
      let cur = raw instanceof PDFDict ? raw : undefined;
      let lang: string | undefined;
      for (let n = 0; cur && n < 1000; n++) {
        const known = tree.byDict.get(cur);
        if (known) return { element: known, lang: lang ?? inheritedLang(known) };
        if (cur === tree.root) return { element: undefined, lang };
        lang ??= getText(cur, 'Lang');
        const parent = cur.lookup(name('P'));
        cur = parent instanceof PDFDict ? parent : undefined;
      }
      return undefined;
    };
    const fail = (err: unknown) => {
      facts.error ??= err instanceof Error ? err.message : String(err);
    };
    const top = (): StreamContext | undefined => contexts[contexts.length - 1];

    const begin = (at: ObservedStream, ctx: StreamContext, op: Operation) => {
      const tagOperand = op.operands[0];
      const tag = isName(tagOperand) ? tagOperand.name : '';
      const props = op.op === 'BDC' ? propsOf(at, op.operands[1]) : undefined;
      const where: Example = { page: at.pageNumber, ...(props?.objectNumber !== undefined ? { objectNumber: props.objectNumber } : ctx.objectNumber !== undefined ? { objectNumber: ctx.objectNumber } : {}) };
      if (props?.lang !== undefined && !langsSeen.has(props.lang) && langsSeen.size < MAX_LANGS) {
        langsSeen.add(props.lang);
        facts.propertyLangs.push({ value: props.lang, example: { ...where, context: `marked-content sequence /${tag} Lang "${props.lang}"` } });
      }
      if (ctx.open.length >= MAX_NESTING) {
        ctx.overflow++;
        return;
      }
      const outer = ctx.open[ctx.open.length - 1];
      const owner = ctx.judged ? ownerOf(ctx.structParents, props?.mcid) : undefined;
      const seq: Sequence = {
        tag,
        tagged: owner !== undefined || (outer?.tagged ?? false),
        artifact: tag === 'Artifact' || (outer?.artifact ?? false),
        effectiveLang: props?.lang ?? owner?.lang ?? outer?.effectiveLang,
      };
      ctx.open.push(seq);
      if (!ctx.judged || ctx.annotation) return;
      facts.sequences++;
      if (tag === 'Artifact' && outer?.tagged) note(facts.artifactInTagged, () => ({ ...where, context: 'Artifact sequence inside tagged content' }));
      if (owner !== undefined && outer?.artifact) note(facts.taggedInArtifact, () => ({ ...where, context: `/${tag} sequence (MCID ${props?.mcid}) inside an Artifact sequence` }));
      if (tag === 'Span' && props && seq.effectiveLang === undefined) {
        if (props.actualText) note(facts.spanTextWithoutLang.ActualText, () => ({ ...where, context: 'Span sequence with ActualText and no Lang' }));
        if (props.alt) note(facts.spanTextWithoutLang.Alt, () => ({ ...where, context: 'Span sequence with Alt and no Lang' }));
        if (props.e) note(facts.spanTextWithoutLang.E, () => ({ ...where, context: 'Span sequence with E and no Lang' }));
      }
    };

    const content = (at: ObservedStream, ctx: StreamContext, kind: ContentKind, whole?: Owner) => {
      if (!ctx.judged || ctx.annotation) return;
      facts.contentItems++;
      const enclosing = ctx.open[ctx.open.length - 1];
      const inner: Sequence | undefined = whole
        ? { tag: '', tagged: true, artifact: enclosing?.artifact ?? false, effectiveLang: whole.lang ?? enclosing?.effectiveLang }
        : enclosing;
      const where = (): Example => ({ page: at.pageNumber, ...(ctx.objectNumber !== undefined ? { objectNumber: ctx.objectNumber } : {}) });
      if (!inner?.tagged && !inner?.artifact) note(facts.untagged, () => ({ ...where(), context: `${describeContent(kind, at)} is neither tagged nor an Artifact` }));
      if (kind === 'text' && inner?.effectiveLang === undefined) note(facts.textWithoutLang, () => ({ ...where(), context: `${describeContent(kind, at)} has no Lang on its marked content or structure element` }));
    };

    /** An image XObject painted by `Do` (forms are judged by their own content), with its dictionary. */
    const imageOf = (at: ObservedStream, op: Operation): PDFDict | undefined => {
      const n = op.operands[0];
      if (!isName(n)) return undefined;
      const obj = at.resource('XObject', n.name).obj;
      const d = obj instanceof PDFStream ? obj.dict : undefined;
      return d && getName(d, 'Subtype') === 'Image' ? d : undefined;
    };

    return {
      startPage(_page: number, node: PDFDict) {
        try {
          const sp = getNumber(node, 'StructParents');
          contexts = [{ kind: 'page', judged: true, annotation: false, structParents: sp, open: [], inherited: 0, overflow: 0, objectNumber: undefined }];
        } catch (err) {
          fail(err);
        }
      },
      enterStream(stream: PDFStream, kind: Within) {
        try {
          const caller = top();
          const judged = (caller?.judged ?? true) && (kind === 'form' || kind === 'annotation');
          const annotation = kind === 'annotation' || (caller?.annotation ?? false);
          // Annotation appearances start afresh: they are drawn by the annotation, not inside page content.
          const open = kind === 'form' && caller ? [...caller.open] : [];
          // A form tagged as a whole (StructParent) makes everything in it tagged content.
          const whole = kind === 'form' && judged ? objectOwner(stream.dict) : undefined;
          if (whole) {
            const outer = open[open.length - 1];
            open.push({ tag: '', tagged: true, artifact: outer?.artifact ?? false, effectiveLang: whole.lang ?? outer?.effectiveLang });
          }
          const own = stream.dict.lookup(name('StructParents'));
          contexts.push({
            kind,
            judged,
            annotation,
            structParents: own instanceof PDFNumber ? own.asNumber() : kind === 'form' ? caller?.structParents : undefined,
            open,
            inherited: open.length,
            overflow: 0,
            objectNumber: m.objectNumbers.of(stream) ?? caller?.objectNumber,
          });
        } catch (err) {
          fail(err);
        }
      },
      leaveStream() {
        try {
          if (contexts.length > 1) contexts.pop();
        } catch (err) {
          fail(err);
        }
      },
      operation(at: ObservedStream, op: Operation) {
        try {
          const ctx = top();
          if (!ctx) return;
          const o = op.op;
          if (o === 'BMC' || o === 'BDC') begin(at, ctx, op);
          else if (o === 'EMC') {
            if (ctx.overflow > 0) ctx.overflow--;
            else if (ctx.open.length > ctx.inherited) ctx.open.pop();
          } else if (SHOW_TEXT.has(o)) content(at, ctx, 'text');
          else if (PAINT_PATH.has(o)) content(at, ctx, 'path');
          else if (o === 'sh') content(at, ctx, 'shading');
          else if (o === 'BI') content(at, ctx, 'inline image');
          else if (o === 'Do') {
            const image = imageOf(at, op);
            if (image) content(at, ctx, 'image', ctx.judged ? objectOwner(image) : undefined);
          }
        } catch (err) {
          fail(err);
        }
      },
      result: () => facts,
    };
  },
};
