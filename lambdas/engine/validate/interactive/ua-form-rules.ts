/**
 * PDF/UA requirements on forms: no dynamic XFA (ISO 14289-1 7.15), a text
 * field's rich-text value says what its plain value says (ISO 14289-2
 * 8.10.3.3), and a signature whose appearance shows a graphic (a scanned
 * handwritten signature) gives that graphic alternative text (8.10.3.5).
 */
import { PDFArray, PDFBool, PDFDict, PDFName, PDFNumber, PDFStream } from '@cantoo/pdf-lib';
import { isName, operations, type Operand } from '../../core/content-lexer';
import { getDict, getName, name, resolve, streamBytes } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import { condition, eachOf, type Rule } from '../rule';
import { structTree } from '../structure/struct-tree';
import { inheritedFieldEntry, inheritedFieldType, textValue } from '../../core/form-fields';
import { annotationExample, annotations, type AnnotationInfo } from './annotations';
import { fieldName, formFields, richTextPlain, textuallyEquivalent } from './fields';
import { enclosing } from './ua-annotation-rules';

/** Form XObjects followed inside an appearance; real signature appearances nest two or three. */
const MAX_FORM_DEPTH = 8;

/** The XFA packets as text: the XFA stream, or the streams of the [name stream …] array. */
function xfaTexts(m: ValidationModel): string[] {
  const xfa = resolve(m.context, getDict(m.catalog, 'AcroForm')?.get(name('XFA')));
  const streams: PDFStream[] = [];
  if (xfa instanceof PDFStream) streams.push(xfa);
  else if (xfa instanceof PDFArray) for (const item of xfa.asArray()) {
    const s = resolve(m.context, item);
    if (s instanceof PDFStream) streams.push(s);
  }
  const out: string[] = [];
  for (const s of streams) {
    const bytes = streamBytes(s);
    if (bytes) out.push(new TextDecoder('utf-8').decode(bytes));
  }
  return out;
}

/** The XFA configuration asks for dynamic rendering (acrobat/acrobat7/dynamicRender = required). */
const dynamicXfa = fact('interactive/dynamic-xfa', (m): boolean => xfaTexts(m).some((t) => /<dynamicRender\b[^>]*>\s*required\s*<\/dynamicRender>/.test(t)));

/** Text fields (FT Tx, inherited) that carry a rich-text value. */
const richTextFields = (m: ValidationModel) => formFields(m).filter((f) => f.has(name('RV')) && inheritedFieldType(f) === 'Tx');

interface GraphicUse {
  /** What was drawn: `image XObject /Im0`, `inline image`. */
  what: string;
  /** Alternative text is in effect: a marked-content sequence with Alt (or ActualText), or its structure element's Alt. */
  described: boolean;
}

/** Images drawn by an appearance stream (and the forms it paints), with whether alternative text covers each. */
function graphicsOf(m: ValidationModel, stream: PDFStream, inherited: boolean, depth: number, seen: Set<PDFStream>): GraphicUse[] {
  if (depth > MAX_FORM_DEPTH || seen.has(stream)) return [];
  seen.add(stream);
  const ctx = m.context;
  const bytes = streamBytes(stream);
  if (!bytes) return [];
  const resources = getDict(stream.dict, 'Resources');
  const structParents = resolve(ctx, stream.dict.get(name('StructParents')));
  const out: GraphicUse[] = [];
  // One entry per open marked-content sequence: does it supply alternative text?
  const marks: boolean[] = [];
  const altOfProperties = (props: Operand | undefined): boolean => {
    let dict: PDFDict | undefined;
    let inline: Record<string, Operand> | undefined;
    if (isName(props)) dict = getDict(getDict(resources, 'Properties'), props.name);
    else if (typeof props === 'object' && props !== null && 'dict' in props) inline = props.dict;
    const has = (k: string) => (inline ? inline[k] !== undefined : dict?.has(name(k)) === true);
    if (has('Alt') || has('ActualText')) return true;
    const mcid = inline ? inline['MCID'] : resolve(ctx, dict?.get(name('MCID')));
    const mcidNumber = typeof mcid === 'number' ? mcid : mcid instanceof PDFNumber ? mcid.asNumber() : undefined;
    if (mcidNumber !== undefined && structParents instanceof PDFNumber) {
      const el = structTree(m).parentTree.forContent(structParents.asNumber(), mcidNumber);
      return el?.alt !== undefined || el?.actualText !== undefined;
    }
    return false;
  };
  for (const op of operations(bytes)) {
    if (op.op === 'BMC') marks.push(false);
    else if (op.op === 'BDC') marks.push(altOfProperties(op.operands[1]));
    else if (op.op === 'EMC') marks.pop();
    else if (op.op === 'BI' || op.op === 'Do') {
      const described = inherited || marks.some(Boolean);
      if (op.op === 'BI') out.push({ what: 'inline image', described });
      else {
        const n = op.operands[0];
        if (!isName(n)) continue;
        const xobj = resolve(ctx, getDict(resources, 'XObject')?.get(PDFName.of(n.name)));
        if (!(xobj instanceof PDFStream)) continue;
        const subtype = getName(xobj.dict, 'Subtype');
        if (subtype === 'Image') out.push({ what: `image XObject /${n.name}`, described });
        else if (subtype === 'Form') out.push(...graphicsOf(m, xobj, described, depth + 1, seen));
      }
    }
  }
  return out;
}

/** The appearance streams of a widget: N as a stream, or each state of N. */
function normalStreams(a: AnnotationInfo): PDFStream[] {
  const n = a.ap?.lookup(name('N'));
  if (n instanceof PDFStream) return [n];
  if (n instanceof PDFDict) return n.values().map((v) => n.context.lookup(v)).filter((s): s is PDFStream => s instanceof PDFStream);
  return [];
}

/** Alternative text on the widget's structure element or an ancestor describes everything it shows. */
function elementDescribed(m: ValidationModel, a: AnnotationInfo): boolean {
  for (let el = enclosing(m, a), i = 0; el && i < 64; el = el.parent, i++) if (el.alt !== undefined || el.actualText !== undefined) return true;
  return false;
}

const undescribedGraphics = fact('interactive/signature-graphics', (m): { annot: AnnotationInfo; what: string }[] => {
  const out: { annot: AnnotationInfo; what: string }[] = [];
  for (const a of annotations(m)) {
    if (a.subtype !== 'Widget' || a.fieldType !== 'Sig') continue;
    const described = elementDescribed(m, a);
    const seen = new Set<PDFStream>();
    for (const s of normalStreams(a)) for (const g of graphicsOf(m, s, described, 0, seen)) if (!g.described) out.push({ annot: a, what: g.what });
  }
  return out;
});

export const UA_FORM_RULES: readonly Rule[] = [
  {
    id: 'pdfua.forms.dynamic-xfa',
    clauses: { ua1: '7.15' },
    description: 'Dynamic XFA forms shall not be used: the XFA configuration shall not require dynamic rendering, and the catalog shall not set NeedsRendering.',
    test: (m) => {
      const needs = m.catalog.lookup(name('NeedsRendering'));
      const needsRendering = needs instanceof PDFBool && needs.asBoolean();
      return condition(!needsRendering && !dynamicXfa(m), { context: needsRendering ? 'catalog NeedsRendering is true' : 'XFA configuration requires dynamic rendering' });
    },
  },
  {
    id: 'pdfua.forms.rich-text-value',
    clauses: { ua2: '8.10.3.3' },
    description: 'A text field with a rich-text value (RV) shall also have a value (V), and the two shall be textually equivalent.',
    test: (m) =>
      eachOf(
        richTextFields(m),
        (f) => {
          const rv = textValue(resolve(m.context, f.get(name('RV'))));
          const v = textValue(inheritedFieldEntry(f, 'V'));
          return v !== undefined && (rv === undefined || textuallyEquivalent(richTextPlain(rv), v));
        },
        (f) => ({
          ...(m.objectNumbers.of(f) !== undefined ? { objectNumber: m.objectNumbers.of(f)! } : {}),
          context: `text field "${fieldName(m.context, f)}": ${textValue(inheritedFieldEntry(f, 'V')) === undefined ? 'RV without V' : 'RV and V differ in text'}`,
        }),
      ),
  },
  {
    id: 'pdfua.forms.signature-graphic-alt',
    clauses: { ua2: '8.10.3.5' },
    description: 'When the appearance of a signature shows a graphic, the graphic shall have alternative text (an Alt on its marked content or on the structure element of the signature widget).',
    test: (m) => {
      const sigWidgets = annotations(m).filter((a) => a.subtype === 'Widget' && a.fieldType === 'Sig');
      const failures = undescribedGraphics(m).map((g) => annotationExample(g.annot, `${g.what} in the signature appearance has no alternative text`));
      return { checked: sigWidgets.length, failures };
    },
  },
];
