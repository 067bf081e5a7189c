/**
 * PDF/A annotation rules: which annotation types may appear (A-1 6.5.2, A-2/3/4
 * 6.3.1), the flags and opacity of annotation dictionaries (A-1 6.5.3, 6.3.2) and
 * their appearances (A-1 6.5.3, 6.3.3). An archived page must look the same in
 * every viewer and on paper, so annotations must print, stay visible, and carry a
 * single normal appearance the viewer draws as is.
 */
import { PDFArray, PDFDict, PDFStream } from '@cantoo/pdf-lib';
import { getName, name } from '../../core/pdf-objects';
import type { StandardProfile } from '../profiles';
import { eachOf, type Rule } from '../rule';
import { annotationExample, annotations, annotNumber, appearanceKeys, FLAG, hasFlag, holdsAppearanceStreams, isZeroSize, type AnnotationInfo } from './annotations';

/** Annotation types of PDF 1.4 (PDF/A-1), less FileAttachment, Sound and Movie. */
const PDFA1_TYPES = ['Text', 'Link', 'FreeText', 'Line', 'Square', 'Circle', 'Highlight', 'Underline', 'Squiggly', 'StrikeOut', 'Stamp', 'Ink', 'Popup', 'Widget', 'PrinterMark', 'TrapNet'];
/** Annotation types of ISO 32000-1 less 3D, Sound, Screen and Movie (PDF/A-2 and -3). */
const PDFA2_TYPES = [
  'Text', 'Link', 'FreeText', 'Line', 'Square', 'Circle', 'Polygon', 'PolyLine', 'Highlight', 'Underline', 'Squiggly', 'StrikeOut',
  'Stamp', 'Caret', 'Ink', 'Popup', 'FileAttachment', 'Widget', 'PrinterMark', 'TrapNet', 'Watermark', 'Redact',
];
/** ISO 32000-2 types less Sound, Screen, Movie, 3D, RichMedia and FileAttachment; 4e adds back 3D and RichMedia, 4f FileAttachment. */
const PDFA4_TYPES = [...PDFA2_TYPES.filter((t) => t !== 'FileAttachment'), 'Projection'];

export function allowedAnnotationTypes(p: StandardProfile): readonly string[] {
  if (p.part === 1) return PDFA1_TYPES;
  if (p.part === 4) return p.level === 'e' ? [...PDFA4_TYPES, '3D', 'RichMedia'] : p.level === 'f' ? [...PDFA4_TYPES, 'FileAttachment'] : PDFA4_TYPES;
  return PDFA2_TYPES;
}

/** Subtypes that need no appearance: a Popup is drawn by its parent, a Link is only an active area (Projection: A-4). */
const NO_APPEARANCE_NEEDED = ['Popup', 'Link', 'Projection'];

const flagNames = (a: AnnotationInfo, p: StandardProfile): string[] => {
  const bad: string[] = [];
  if (!hasFlag(a, FLAG.print)) bad.push('Print not set');
  if (hasFlag(a, FLAG.hidden)) bad.push('Hidden set');
  if (hasFlag(a, FLAG.invisible)) bad.push('Invisible set');
  if (hasFlag(a, FLAG.noView)) bad.push('NoView set');
  // ToggleNoView came with PDF 1.5: PDF/A-1 does not name it.
  if (p.part !== 1 && hasFlag(a, FLAG.toggleNoView)) bad.push('ToggleNoView set');
  return bad;
};

/**
 * A widget of a button field: FT Btn on the widget or inherited from its
 * parent fields (veraPDF reads FT the same way, from the nearest dictionary
 * up the Parent chain that has it). Every kind of button counts, push
 * buttons too, whatever the Ff flags say: ISO 19005-1 Cor.2 (2011) asks a
 * subdictionary of any Btn widget, and veraPDF (PDFA-1B 6.5.3-5, PDFA-2B and
 * PDFA-4 6.3.3-3) applies it to a push button with its one appearance as
 * well, following the TWG's reading that a button's N is a subdictionary
 * even when the button has a single state.
 */
const isButtonWidget = (a: AnnotationInfo) => a.subtype === 'Widget' && a.fieldType === 'Btn';

export const ANNOTATION_RULES: readonly Rule[] = [
  {
    id: 'pdfa.annotations.types',
    clauses: { 1: '6.5.2', 2: '6.3.1', 3: '6.3.1', 4: '6.3.1' },
    description: (p) => `Only annotation types defined in the PDF reference the part is based on are permitted, and not all of them: allowed are ${allowedAnnotationTypes(p).join(', ')}.`,
    test: (m, p) => {
      const allowed = allowedAnnotationTypes(p);
      return eachOf(annotations(m), (a) => a.subtype !== null && allowed.includes(a.subtype), (a) => annotationExample(a, a.subtype === null ? 'no Subtype' : 'type not permitted'));
    },
  },
  {
    id: 'pdfa.annotations.3d-data',
    clauses: { 4: '6.3.1' },
    levels: ['e'],
    description: 'The 3D stream of a 3D annotation shall hold U3D or PRC data (Subtype U3D or PRC), the formats ISO 32000-2 defines.',
    test: (m) => {
      const withStream = annotations(m).filter((a) => a.subtype === '3D' && a.dict.lookup(name('3DD')) instanceof PDFStream);
      const format = (a: AnnotationInfo) => getName((a.dict.lookup(name('3DD')) as PDFStream).dict, 'Subtype');
      return eachOf(withStream, (a) => ['U3D', 'PRC'].includes(format(a) ?? ''), (a) => annotationExample(a, `3D data of type ${format(a) ?? '(none)'}`));
    },
  },
  {
    id: 'pdfa.annotations.flags-present',
    clauses: { 1: '6.5.3', 2: '6.3.2', 3: '6.3.2', 4: '6.3.2' },
    description: (p) => (p.part === 1 ? 'Every annotation dictionary shall contain the F (flags) key.' : 'Every annotation dictionary except a Popup shall contain the F (flags) key.'),
    test: (m, p) => eachOf(annotations(m).filter((a) => p.part === 1 || a.subtype !== 'Popup'), (a) => a.flags !== null, (a) => annotationExample(a, 'no F key')),
  },
  {
    id: 'pdfa.annotations.flags',
    clauses: { 1: '6.5.3', 2: '6.3.2', 3: '6.3.2', 4: '6.3.2' },
    description: (p) =>
      `An annotation's Print flag shall be set and its Hidden, Invisible${p.part === 1 ? '' : ', ToggleNoView'} and NoView flags shall be clear, so it prints and displays as it appears.`,
    test: (m, p) => eachOf(annotations(m).filter((a) => a.flags !== null), (a) => flagNames(a, p).length === 0, (a) => annotationExample(a, `F ${a.flags}: ${flagNames(a, p).join(', ')}`)),
  },
  {
    id: 'pdfa.annotations.opacity',
    clauses: { 1: '6.5.3' },
    description: 'An annotation dictionary shall not contain the CA key with a value other than 1.0 (no transparency in PDF/A-1).',
    test: (m) => {
      const withCA = annotations(m).filter((a) => a.dict.has(name('CA')));
      return eachOf(withCA, (a) => annotNumber(a, 'CA') === 1, (a) => annotationExample(a, `CA ${annotNumber(a, 'CA') ?? '(not a number)'}`));
    },
  },
  {
    id: 'pdfa.annotations.colour',
    clauses: { 1: '6.5.3' },
    description: 'An annotation shall not contain the C or IC colour arrays unless the PDF/A output intent profile is an RGB profile (those colours are device RGB).',
    test: (m) => {
      const rgbIntent = m.facts.outputIntents.some((oi) => oi.profile?.colourSpace === 'RGB ');
      // A colour is an array (ISO 32000-1 Table 164); veraPDF counts C and IC only when they are arrays, and so do we.
      const colour = (a: AnnotationInfo, key: string) => a.dict.lookup(name(key)) instanceof PDFArray;
      const coloured = annotations(m).filter((a) => colour(a, 'C') || colour(a, 'IC'));
      return eachOf(coloured, () => rgbIntent, (a) => annotationExample(a, `${colour(a, 'C') ? 'C' : 'IC'} colour without an RGB output intent`));
    },
  },
  {
    id: 'pdfa.annotations.appearance-present',
    clauses: { 2: '6.3.3', 3: '6.3.3', 4: '6.3.3' },
    description: (p) =>
      `Every annotation (including Widget annotations of form fields) shall have an appearance dictionary, except ${p.part === 4 ? 'Popup, Link and Projection annotations' : 'Popup and Link annotations'} and annotations whose rectangle has zero width and height.`,
    test: (m, p) => {
      const exempt = p.part === 4 ? NO_APPEARANCE_NEEDED : NO_APPEARANCE_NEEDED.slice(0, 2);
      const needing = annotations(m).filter((a) => !exempt.includes(a.subtype ?? '') && !isZeroSize(a));
      return eachOf(needing, (a) => a.ap !== undefined, (a) => annotationExample(a, noAppearanceDictionary(a)));
    },
  },
  {
    id: 'pdfa.forms.widget-appearance',
    clauses: { 1: '6.9' },
    description: 'Every form field widget shall have an appearance dictionary (AP) for the field’s data.',
    test: (m) => eachOf(annotations(m).filter((a) => a.subtype === 'Widget'), (a) => a.ap !== undefined, (a) => annotationExample(a, noAppearanceDictionary(a))),
  },
  {
    id: 'pdfa.annotations.appearance-normal-only',
    clauses: { 1: '6.5.3', 2: '6.3.3', 3: '6.3.3', 4: '6.3.3' },
    description: 'An appearance dictionary (AP) shall contain only the N (normal appearance) key: no rollover or down appearances.',
    test: (m) => {
      const withAP = annotations(m).filter((a) => a.ap !== undefined);
      return eachOf(withAP, (a) => hasNormalOnly(a), (a) => annotationExample(a, `AP has ${appearanceKeys(a).join(', ') || 'no keys'}`));
    },
  },
  {
    id: 'pdfa.annotations.appearance-button',
    clauses: { 1: '6.5.3', 2: '6.3.3', 3: '6.3.3', 4: '6.3.3' },
    description: 'The normal appearance (N) of a button field’s Widget annotation shall be an appearance subdictionary with one appearance stream per state.',
    test: (m) => {
      const buttons = annotations(m).filter((a) => isButtonWidget(a) && hasNormalOnly(a));
      return eachOf(buttons, (a) => {
        const n = a.ap!.lookup(name('N'));
        return n instanceof PDFDict && holdsAppearanceStreams(n);
      }, (a) => annotationExample(a, 'button N is not an appearance subdictionary'));
    },
  },
  {
    id: 'pdfa.annotations.appearance-stream',
    clauses: { 1: '6.5.3', 2: '6.3.3', 3: '6.3.3', 4: '6.3.3' },
    description: 'The normal appearance (N) of an annotation other than a button field’s widget shall be an appearance stream.',
    test: (m) => {
      const others = annotations(m).filter((a) => !isButtonWidget(a) && hasNormalOnly(a));
      return eachOf(others, (a) => a.ap!.lookup(name('N')) instanceof PDFStream, (a) => annotationExample(a, `N is ${describeValue(a.ap!.lookup(name('N')))}, not a stream`));
    },
  },
];

const noAppearanceDictionary = (a: AnnotationInfo): string => (a.apMalformed ? 'AP is not a dictionary' : 'no appearance dictionary (AP)');

/** The appearance rules on N judge dictionaries that hold only N; other keys are the normal-only rule's failure. */
function hasNormalOnly(a: AnnotationInfo): boolean {
  const keys = appearanceKeys(a);
  return keys.length === 1 && keys[0] === 'N';
}

function describeValue(v: unknown): string {
  if (v instanceof PDFStream) return 'a stream';
  if (v instanceof PDFDict) return 'a dictionary';
  if (v instanceof PDFArray) return 'an array';
  return v === undefined ? 'missing' : 'another object';
}
