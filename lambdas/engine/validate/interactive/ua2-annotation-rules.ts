/**
 * PDF/UA-2 requirements on particular annotation types (ISO 14289-2 8.9.2.3,
 * 8.9.2.4, 8.9.3.3 and 8.9.4.2): markup annotations are real content enclosed
 * in Annot elements, annotations whose meaning is not visible in text carry a
 * Contents description, annotations that are not content (popups, printer's
 * marks, zero-size widgets) stay out of the structure tree or are artifacts,
 * a few types are not allowed at all, and where a description is given twice
 * (RC and Contents, Contents and Alt) both say the same.
 */
import { PDFDict } from '@cantoo/pdf-lib';
import { textValue } from '../../core/form-fields';
import { getName, getText, has, name } from '../../core/pdf-objects';
import type { ValidationModel } from '../model';
import { eachOf, type Rule } from '../rule';
import { annotationExample, annotations, FLAG, hasFlag, isZeroSize, type AnnotationInfo } from './annotations';
import { richTextPlain, textuallyEquivalent } from './fields';
import { enclosing } from './ua-annotation-rules';

/** Annotation types ISO 32000-2 (Table 171) calls markup annotations. */
const MARKUP_TYPES: ReadonlySet<string> = new Set([
  'Text', 'FreeText', 'Line', 'Square', 'Circle', 'Polygon', 'PolyLine', 'Highlight', 'Underline', 'Squiggly', 'StrikeOut',
  'Caret', 'Stamp', 'Ink', 'FileAttachment', 'Sound', 'Redact', 'Projection',
]);

const ofType = (m: ValidationModel, ...types: string[]) => annotations(m).filter((a) => a.subtype !== null && types.includes(a.subtype));
const tagOf = (m: ValidationModel, a: AnnotationInfo) => enclosing(m, a)?.standardType;
const isArtifactOrUntagged = (m: ValidationModel, a: AnnotationInfo) => enclosing(m, a) === undefined || tagOf(m, a) === 'Artifact';
const taggedAs = (m: ValidationModel, a: AnnotationInfo) => {
  const el = enclosing(m, a);
  return el ? `enclosed in ${el.standardType ?? el.type ?? '(no type)'}` : 'not in the structure tree';
};

/**
 * Markup annotations a reader never presents: hidden or invisible (8.9.2.2 makes
 * them artifacts), or tagged as artifacts. They are not judged as real content.
 */
const notRealContent = (m: ValidationModel, a: AnnotationInfo) =>
  hasFlag(a, FLAG.invisible) || hasFlag(a, FLAG.hidden) || (hasFlag(a, FLAG.noView) && !hasFlag(a, FLAG.toggleNoView)) || tagOf(m, a) === 'Artifact';

const rcText = (a: AnnotationInfo) => {
  const rc = textValue(a.dict.lookup(name('RC')));
  return rc === undefined ? undefined : richTextPlain(rc);
};

/** Whitespace-normalised text for comparing two descriptions that shall be identical. */
const normalised = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A rule requiring a Contents entry on every annotation of the given types. */
const contentsRequired = (id: string, clause: string, types: string[], description: string): Rule => ({
  id,
  clauses: { ua2: clause },
  description,
  test: (m) => eachOf(ofType(m, ...types), (a) => has(a.dict, 'Contents'), (a) => annotationExample(a, 'no Contents')),
});

export const UA2_ANNOTATION_RULES: readonly Rule[] = [
  {
    id: 'pdfua.annotations.markup-tagged',
    clauses: { ua2: '8.9.2.3' },
    description: 'A markup annotation that is real content shall be enclosed in an Annot structure element.',
    test: (m) => eachOf(ofType(m, ...MARKUP_TYPES).filter((a) => !notRealContent(m, a)), (a) => tagOf(m, a) === 'Annot', (a) => annotationExample(a, `${taggedAs(m, a)}, not Annot`)),
  },
  {
    id: 'pdfua.annotations.rich-text-contents',
    clauses: { ua2: '8.9.2.3' },
    description: 'When a markup annotation has both RC (rich text) and Contents, they shall be textually equivalent.',
    test: (m) => {
      const both = ofType(m, ...MARKUP_TYPES).filter((a) => rcText(a) !== undefined && getText(a.dict, 'Contents') !== undefined);
      return eachOf(both, (a) => textuallyEquivalent(rcText(a)!, getText(a.dict, 'Contents')!), (a) => annotationExample(a, 'RC and Contents differ in text'));
    },
  },
  {
    id: 'pdfua.annotations.stamp-description',
    clauses: { ua2: '8.9.2.4.7' },
    description: "A Stamp annotation shall have a Name describing its intent or, where the name is insufficient, a Contents entry describing the author's intent.",
    test: (m) => eachOf(ofType(m, 'Stamp'), (a) => has(a.dict, 'Name') || has(a.dict, 'Contents'), (a) => annotationExample(a, 'neither Name nor Contents')),
  },
  contentsRequired('pdfua.annotations.ink-contents', '8.9.2.4.8', ['Ink'], "An Ink annotation shall have a Contents entry describing the author's intent."),
  {
    id: 'pdfua.annotations.popup-untagged',
    clauses: { ua2: '8.9.2.4.9' },
    description: 'Popup annotations shall not be present in the structure tree: they repeat the text of their parent annotation.',
    test: (m) => eachOf(ofType(m, 'Popup'), (a) => enclosing(m, a) === undefined, (a) => annotationExample(a, taggedAs(m, a))),
  },
  {
    id: 'pdfua.annotations.sound-movie',
    clauses: { ua2: '8.9.2.4.11' },
    description: 'Sound and Movie annotations shall not be used (ISO 32000-2 deprecates them; Screen annotations with renditions replace them).',
    test: (m) => eachOf(ofType(m, 'Sound', 'Movie'), () => false, (a) => annotationExample(a)),
  },
  contentsRequired('pdfua.annotations.screen-contents', '8.9.2.4.12', ['Screen'], 'A Screen annotation shall have a Contents entry describing it.'),
  {
    id: 'pdfua.annotations.zero-size-widget',
    clauses: { ua2: '8.9.2.4.13' },
    description: 'A Widget annotation of zero width and height shall be an artifact: not enclosed in a structure element other than Artifact.',
    test: (m) => eachOf(ofType(m, 'Widget').filter(isZeroSize), (a) => isArtifactOrUntagged(m, a), (a) => annotationExample(a, `zero size, ${taggedAs(m, a)}`)),
  },
  {
    id: 'pdfua.annotations.printer-mark-artifact',
    clauses: { ua2: '8.9.2.4.14' },
    description: "A PrinterMark annotation shall be an artifact: not enclosed in a structure element other than Artifact.",
    test: (m) => eachOf(ofType(m, 'PrinterMark'), (a) => isArtifactOrUntagged(m, a), (a) => annotationExample(a, taggedAs(m, a))),
  },
  {
    id: 'pdfua.annotations.watermark',
    clauses: { ua2: '8.9.2.4.16' },
    description: 'A Watermark annotation used as real content shall be enclosed in an Annot structure element (otherwise it is an artifact).',
    test: (m) => eachOf(ofType(m, 'Watermark'), (a) => isArtifactOrUntagged(m, a) || tagOf(m, a) === 'Annot', (a) => annotationExample(a, `${taggedAs(m, a)}, not Annot`)),
  },
  contentsRequired('pdfua.annotations.3d-rich-media-contents', '8.9.2.4.19', ['3D', 'RichMedia'], 'A 3D or RichMedia annotation shall have a Contents entry with an alternative description.'),
  {
    id: 'pdfua.annotations.tabs',
    clauses: { ua2: '8.9.3.3' },
    description: 'Every page with annotations shall have a Tabs entry with value A (annotation array order), W (widget order) or S (structure order).',
    test: (m) => {
      const pages = new Map<number, PDFDict>();
      for (const a of annotations(m)) if (!pages.has(a.page)) pages.set(a.page, a.pageDict);
      return eachOf([...pages], ([, d]) => ['A', 'W', 'S'].includes(getName(d, 'Tabs') ?? ''), ([page, d]) => ({ page, context: `page Tabs ${getName(d, 'Tabs') ?? '(absent)'}` }));
    },
  },
  {
    id: 'pdfua.annotations.contents-alt',
    clauses: { ua2: '8.9.4.2' },
    description: 'When an annotation has a Contents entry and its enclosing structure element an Alt entry, the two shall be identical.',
    test: (m) => {
      const both = annotations(m).filter((a) => getText(a.dict, 'Contents') !== undefined && enclosing(m, a)?.alt !== undefined);
      return eachOf(both, (a) => normalised(getText(a.dict, 'Contents')!) === normalised(enclosing(m, a)!.alt!), (a) => annotationExample(a, 'Contents differs from the Alt of its structure element'));
    },
  },
];
