/**
 * PDF/UA requirements on annotations (ISO 14289-1 7.18, ISO 14289-2 8.9 and
 * 8.10): an assistive technology reaches annotations through the structure
 * tree, so each visible annotation is tagged with the element its kind calls
 * for (Annot, Link, Form), carries a text alternative, and pages with
 * annotations order them by structure. Annotations that are not real content
 * (printer's marks, invisible ones) stay out of the tree or are artifacts.
 */
import { PDFArray, PDFDict, PDFNumber, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { inherited } from '../../core/inherited';
import { getDict, getName, getText, name, resolve, resolvedItems, textOf } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import { eachOf, type Example, type Rule } from '../rule';
import { structTree, type StructElem } from '../structure/struct-tree';
import { annotationExample, annotations, FLAG, hasFlag, type AnnotationInfo } from './annotations';

/** Depth of page-tree and field Parent chains followed. */
const MAX_PARENT_DEPTH = 32;

/** The structure element an annotation's StructParent names in the ParentTree, if any. */
function structParentOf(m: ValidationModel, a: AnnotationInfo): StructElem | undefined {
  const sp = a.dict.lookup(name('StructParent'));
  if (!(sp instanceof PDFNumber)) return undefined;
  return structTree(m).parentTree.forObject(sp.asNumber());
}

/** The element enclosing the annotation: the ParentTree entry, else an element whose OBJR kid points at it. */
const enclosingElements = fact('annotation-struct-parents', (m): Map<PDFDict, StructElem> => {
  const out = new Map<PDFDict, StructElem>();
  const tree = structTree(m);
  for (const el of tree.elements) {
    for (const kid of el.kids) if (kid.kind === 'objr' && kid.object instanceof PDFDict && !out.has(kid.object)) out.set(kid.object, el);
  }
  for (const a of annotations(m)) {
    const el = structParentOf(m, a);
    if (el) out.set(a.dict, el);
  }
  return out;
});

export const enclosing = (m: ValidationModel, a: AnnotationInfo): StructElem | undefined => enclosingElements(m).get(a.dict);

/** A page box, inherited through the page tree (CropBox falls back to MediaBox). */
function pageBox(ctx: PDFContext, page: PDFDict, key: string): number[] | undefined {
  const isBox = (box: PDFObject): box is PDFArray => box instanceof PDFArray && box.size() === 4 && box.asArray().every((x) => resolve(ctx, x) instanceof PDFNumber);
  const box = inherited(page, key, { maxDepth: MAX_PARENT_DEPTH, accept: isBox });
  return box?.asArray().map((x) => (resolve(ctx, x) as PDFNumber).asNumber());
}

/** The annotation lies wholly outside the page's crop box: it can never be seen, so PDF/UA does not judge it. */
function outsideCropBox(m: ValidationModel, a: AnnotationInfo): boolean {
  const box = pageBox(m.context, a.pageDict, 'CropBox') ?? pageBox(m.context, a.pageDict, 'MediaBox');
  if (!box || !a.rect) return false;
  const [bx1, bx2] = [Math.min(box[0]!, box[2]!), Math.max(box[0]!, box[2]!)];
  const [by1, by2] = [Math.min(box[1]!, box[3]!), Math.max(box[1]!, box[3]!)];
  const [rx1, rx2] = [Math.min(a.rect[0], a.rect[2]), Math.max(a.rect[0], a.rect[2])];
  const [ry1, ry2] = [Math.min(a.rect[1], a.rect[3]), Math.max(a.rect[1], a.rect[3])];
  return rx2 < bx1 || rx1 > bx2 || ry2 < by1 || ry1 > by2;
}

/**
 * Visible annotations: PDF/UA-1 exempts hidden ones and those outside the crop
 * box. A Popup is not judged on its own: it only shows the text of its parent
 * markup annotation, which carries the tag and the alternative (veraPDF's UA-1
 * corpus passes untagged popups of tagged Text annotations).
 */
const visible = (m: ValidationModel) => annotations(m).filter((a) => a.subtype !== 'Popup' && !hasFlag(a, FLAG.hidden) && !outsideCropBox(m, a));

const nonEmpty = (s: string | undefined) => s !== undefined && s.length > 0;
const contentsOf = (a: AnnotationInfo) => getText(a.dict, 'Contents');

/**
 * TU of the widget's field. TU is a field entry and is not inherited: a widget
 * merged with its field (it has T, or no Parent) holds it itself, a kid widget
 * reads it from its parent field — TU written on the kid widget does not name
 * the field (the case of veraPDF's 7.18.1 t03 fail-d).
 */
function fieldTooltip(ctx: PDFContext, a: AnnotationInfo): string | undefined {
  const parent = resolve(ctx, a.dict.get(name('Parent')));
  const field = a.dict.has(name('T')) || !(parent instanceof PDFDict) ? a.dict : parent;
  return getText(field, 'TU');
}

const taggedAs = (m: ValidationModel, a: AnnotationInfo, type: string) => enclosing(m, a)?.standardType === type;
const tagExample = (m: ValidationModel, a: AnnotationInfo, wanted: string): Example => {
  const el = enclosing(m, a);
  return annotationExample(a, el ? `tagged ${el.standardType ?? el.type ?? '(no type)'}, not ${wanted}` : `not in the structure tree (needs ${wanted})`);
};

/** Media clip data dictionaries reached from Rendition actions (media renditions and selector renditions). */
const mediaClips = fact('media-clips', (m): { clip: PDFDict; page: number | null }[] => {
  const ctx = m.context;
  const out: { clip: PDFDict; page: number | null }[] = [];
  const seen = new Set<PDFDict>();
  const visitRendition = (r: PDFDict | undefined, page: number | null, depth: number) => {
    if (!r || seen.has(r) || depth > MAX_PARENT_DEPTH) return;
    seen.add(r);
    const s = getName(r, 'S');
    if (s === 'MR') {
      const clip = getDict(r, 'C');
      if (clip && getName(clip, 'S') === 'MCD' && !seen.has(clip)) {
        seen.add(clip);
        out.push({ clip, page });
      }
    } else if (s === 'SR') {
      for (const kid of resolvedItems(ctx, r.get(name('R')))) if (kid instanceof PDFDict) visitRendition(kid, page, depth + 1);
    }
  };
  for (const site of m.actions.sites) if (site.type === 'Rendition') visitRendition(getDict(site.action, 'R'), site.page, 0);
  return out;
});

/** Alt of a media clip: pairs of language and text, every text a string and at least one non-empty. */
function hasAlternateText(ctx: PDFContext, clip: PDFDict): boolean {
  const alt = resolve(ctx, clip.get(name('Alt')));
  if (!(alt instanceof PDFArray) || alt.size() < 2 || alt.size() % 2 !== 0) return false;
  const texts: (string | undefined)[] = [];
  for (let i = 1; i < alt.size(); i += 2) texts.push(textOf(resolve(ctx, alt.get(i))));
  return texts.every((t) => t !== undefined) && texts.some((t) => t!.length > 0);
}

const pagesWithAnnotations = (m: ValidationModel) => {
  const pages = new Map<number, PDFDict>();
  for (const a of annotations(m)) if (!pages.has(a.page)) pages.set(a.page, a.pageDict);
  return [...pages];
};

export const UA_ANNOTATION_RULES: readonly Rule[] = [
  {
    id: 'pdfua.annotations.tagged',
    clauses: { ua1: '7.18.1' },
    description: 'Every visible annotation other than a Widget, Link, PrinterMark or Popup shall be enclosed in an Annot structure element.',
    test: (m) => eachOf(visible(m).filter((a) => !['Widget', 'Link', 'PrinterMark'].includes(a.subtype ?? '')), (a) => taggedAs(m, a, 'Annot'), (a) => tagExample(m, a, 'Annot')),
  },
  {
    id: 'pdfua.annotations.alternative',
    clauses: { ua1: '7.18.1' },
    description: 'Every visible annotation other than a Widget or Popup shall have a text alternative: a non-empty Contents entry or an Alt on its structure element.',
    test: (m) =>
      eachOf(
        visible(m).filter((a) => a.subtype !== 'Widget'),
        (a) => nonEmpty(contentsOf(a)) || nonEmpty(enclosing(m, a)?.alt),
        (a) => annotationExample(a, 'no Contents and no Alt'),
      ),
  },
  {
    id: 'pdfua.forms.description',
    clauses: { ua1: '7.18.1' },
    description: 'A form field shall have a TU (user name) entry, or its Widget annotations an Alt on their enclosing structure element.',
    test: (m) =>
      eachOf(
        visible(m).filter((a) => a.subtype === 'Widget'),
        (a) => nonEmpty(fieldTooltip(m.context, a)) || nonEmpty(enclosing(m, a)?.alt),
        (a) => annotationExample(a, 'field has no TU and the widget no Alt'),
      ),
  },
  {
    id: 'pdfua.annotations.trap-net',
    clauses: { ua1: '7.18.2', ua2: '8.9.2.4.15' },
    description: (p) => (p.code === 'ua2' ? 'TrapNet annotations shall not be used.' : 'TrapNet annotations shall not be present (other than hidden or outside the crop box).'),
    // UA-1 judges what a reader can see; UA-2 forbids the annotation type outright.
    test: (m, p) => eachOf((p.code === 'ua2' ? annotations(m) : visible(m)).filter((a) => a.subtype === 'TrapNet'), () => false, (a) => annotationExample(a)),
  },
  {
    id: 'pdfua.annotations.tab-order',
    clauses: { ua1: '7.18.3' },
    description: 'Every page with annotations shall have a Tabs entry with value S, so annotations are visited in structure order.',
    test: (m) => eachOf(pagesWithAnnotations(m), ([, d]) => getName(d, 'Tabs') === 'S', ([page, d]) => ({ page, context: `page Tabs ${getName(d, 'Tabs') ?? '(absent)'}` })),
  },
  {
    id: 'pdfua.forms.tagged',
    clauses: { ua1: '7.18.4' },
    description: 'Every visible Widget annotation shall be enclosed in a Form structure element.',
    test: (m) => eachOf(visible(m).filter((a) => a.subtype === 'Widget'), (a) => taggedAs(m, a, 'Form'), (a) => tagExample(m, a, 'Form')),
  },
  {
    id: 'pdfua.links.tagged',
    clauses: { ua1: '7.18.5' },
    description: 'Every visible Link annotation shall be enclosed in a Link structure element.',
    test: (m) => eachOf(visible(m).filter((a) => a.subtype === 'Link'), (a) => taggedAs(m, a, 'Link'), (a) => tagExample(m, a, 'Link')),
  },
  {
    id: 'pdfua.links.description',
    clauses: { ua1: '7.18.5' },
    description: 'Every visible Link annotation shall have a non-empty Contents entry describing the link.',
    test: (m) => eachOf(visible(m).filter((a) => a.subtype === 'Link'), (a) => nonEmpty(contentsOf(a)), (a) => annotationExample(a, 'no Contents')),
  },
  {
    id: 'pdfua.media.clip-description',
    clauses: { ua1: '7.18.6.2' },
    description: 'A media clip data dictionary shall have a CT (content type) entry and an Alt entry with a text alternative.',
    test: (m) =>
      eachOf(
        mediaClips(m),
        (c) => c.clip.has(name('CT')) && hasAlternateText(m.context, c.clip),
        (c) => ({ ...(c.page !== null ? { page: c.page } : {}), ...(m.objectNumbers.of(c.clip) !== undefined ? { objectNumber: m.objectNumbers.of(c.clip)! } : {}), context: `media clip lacks ${c.clip.has(name('CT')) ? 'a valid Alt' : 'CT'}` }),
      ),
  },
  {
    id: 'pdfua.file-attachments.names',
    clauses: { ua1: '7.18.7' },
    description: 'The file specification of a FileAttachment annotation shall contain non-empty F and UF entries (as 7.11 asks of every embedded file).',
    test: (m) => {
      const specOf = (a: AnnotationInfo) => resolve(m.context, a.dict.get(name('FS')));
      const withSpec = annotations(m).filter((a) => a.subtype === 'FileAttachment' && specOf(a) instanceof PDFDict && (specOf(a) as PDFDict).has(name('EF')));
      return eachOf(withSpec, (a) => nonEmpty(getText(specOf(a) as PDFDict, 'F')) && nonEmpty(getText(specOf(a) as PDFDict, 'UF')), (a) => annotationExample(a, 'file specification lacks a non-empty F or UF'));
    },
  },
  {
    id: 'pdfua.annotations.printer-mark',
    clauses: { ua1: '7.18.8' },
    description: 'A PrinterMark annotation is an artifact and shall not be part of the structure tree.',
    test: (m) => eachOf(visible(m).filter((a) => a.subtype === 'PrinterMark'), (a) => enclosing(m, a) === undefined, (a) => annotationExample(a, 'in the structure tree')),
  },
  {
    id: 'pdfua.annotations.hidden-artifact',
    clauses: { ua2: '8.9.2.2' },
    description: 'An annotation with the Invisible flag, or with NoView set and ToggleNoView clear, shall be an artifact, not real content in the structure tree.',
    test: (m) => {
      const hiddenish = annotations(m).filter((a) => hasFlag(a, FLAG.invisible) || (hasFlag(a, FLAG.noView) && !hasFlag(a, FLAG.toggleNoView)));
      return eachOf(hiddenish, (a) => enclosing(m, a) === undefined || enclosing(m, a)!.standardType === 'Artifact', (a) => annotationExample(a, `F ${a.flags}, tagged ${enclosing(m, a)?.type ?? ''}`));
    },
  },
  {
    id: 'pdfua.forms.enclosed',
    clauses: { ua2: '8.10.1' },
    description: 'A Widget annotation that is tagged shall be enclosed in a Form structure element (unless it is an artifact).',
    test: (m) => {
      const tagged = annotations(m).filter((a) => a.subtype === 'Widget' && enclosing(m, a) !== undefined);
      return eachOf(tagged, (a) => ['Form', 'Artifact'].includes(enclosing(m, a)!.standardType ?? ''), (a) => tagExample(m, a, 'Form'));
    },
  },
  {
    id: 'pdfua.forms.contents',
    clauses: { ua2: '8.10.2.3' },
    description: 'A Widget annotation shall have a Contents entry when no label (Lbl) describes it, and whenever it has additional actions (AA).',
    test: (m) => {
      const widgets = annotations(m).filter((a) => a.subtype === 'Widget');
      const labelled = (a: AnnotationInfo) => {
        const el = enclosing(m, a);
        return el !== undefined && (el.children.some((c) => c.standardType === 'Lbl') || el.parent?.children.some((c) => c.standardType === 'Lbl') === true);
      };
      return eachOf(
        widgets,
        (a) => contentsOf(a) !== undefined || (!a.dict.has(name('AA')) && labelled(a)),
        (a) => annotationExample(a, a.dict.has(name('AA')) ? 'has additional actions but no Contents' : 'no label and no Contents'),
      );
    },
  },
  {
    id: 'pdfua.security.accessibility',
    clauses: { ua1: '7.16' },
    description: 'An encrypted file shall have a P entry in its encryption dictionary with bit 10 set, so assistive technology may extract its content.',
    test: (m) => {
      const enc = m.pdf.encryption;
      if (!enc) return { checked: 0, failures: [] };
      const p = enc.permissions;
      return { checked: 1, failures: p !== null && (p & 512) === 512 ? [] : [{ context: p === null ? 'encryption dictionary has no P' : 'P bit 10 (content extraction for accessibility) is clear' }] };
    },
  },
  {
    id: 'pdfua.forms.single-widget',
    clauses: { ua2: '8.10.1' },
    description: 'A Form structure element shall enclose at most one Widget annotation.',
    test: (m) => {
      const forms = structTree(m).elements.filter((e) => e.standardType === 'Form');
      const widgetCount = (e: StructElem) => e.kids.filter((k) => k.kind === 'objr' && k.object instanceof PDFDict && getName(k.object, 'Subtype') === 'Widget').length;
      return eachOf(forms, (e) => widgetCount(e) <= 1, (e) => ({ ...(e.page !== undefined ? { page: e.page } : {}), ...(e.objectNumber !== undefined ? { objectNumber: e.objectNumber } : {}), context: `Form element encloses ${widgetCount(e)} widgets` }));
    },
  },
];
