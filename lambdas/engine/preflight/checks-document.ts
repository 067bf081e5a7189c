/**
 * Document-level checks: encryption, damage repaired while reading, JavaScript and launch actions, embedded
 * files, layers, form fields, annotations that would print on the finished
 * page, the output intent a PDF/X claim (or the profile) requires, and whether
 * the content could be analysed completely.
 */
import type { ActionSite } from '../core/actions';
import type { LimitHit } from '../core/interpret/types';
import { plural, type MessageWriter, type Observation } from './findings';
import type { PdfCheckId } from './check-catalogue';
import { overlaps, type InventoryPage } from './inventory-page';
import type { AnnotationFacts } from './pdf-document';
import type { PdfDocumentSection } from './report';
import type { PreflightSettings } from './settings';
import { listText, quoted, shortList } from './wording';

export interface DocumentInput {
  document: PdfDocumentSection;
  actions: ActionSite[];
  annotations: AnnotationFacts[];
  pages: InventoryPage[];
}

/** Annotations that never print content of their own, or belong outside the trim by definition. */
const NOT_CONTENT = new Set(['Link', 'Popup', 'PrinterMark', 'TrapNet']);

export function checkDocument(input: DocumentInput, settings: PreflightSettings): Observation<PdfCheckId>[] {
  const { document: doc } = input;
  const out: Observation<PdfCheckId>[] = [];
  const on = (id: PdfCheckId) => settings.severity(id) !== 'off';

  if (on('pdf.encrypted') && doc.encrypted) {
    out.push({ checkId: 'pdf.encrypted', page: null, measured: doc.encryption ?? true, required: false });
  }
  if (on('document.repaired') && doc.repairs.length > 0) {
    out.push({ checkId: 'document.repaired', page: null, measured: { repairs: doc.repairs }, required: 'a file readable as written' });
  }
  if (on('document.javascript')) {
    for (const a of input.actions) {
      if (a.type !== 'JavaScript' && a.type !== 'Launch') continue;
      out.push({ checkId: 'document.javascript', page: a.page, measured: { type: a.type, location: a.location }, required: 'no JavaScript or launch actions' });
    }
  }
  if (on('document.embedded-files')) {
    for (const f of doc.embeddedFiles) out.push({ checkId: 'document.embedded-files', page: f.page, measured: { name: f.name, mimeType: f.mimeType, sizeBytes: f.sizeBytes }, required: 'no embedded files' });
  }
  if (on('document.layers') && doc.layers.length > 0) {
    out.push({ checkId: 'document.layers', page: null, measured: { layers: doc.layers.length, hidden: doc.layers.filter((l) => !l.visibleByDefault).map((l) => l.name) }, required: 'no layers' });
  }
  if (on('document.forms') && doc.formFields > 0) {
    out.push({ checkId: 'document.forms', page: null, measured: { fields: doc.formFields }, required: 'no form fields' });
  }
  if (on('annotations.in-trim')) {
    const trims = new Map(input.pages.map((p) => [p.page, p.trim]));
    for (const a of input.annotations) {
      const trim = trims.get(a.page);
      if (!a.prints || !a.hasAppearance || NOT_CONTENT.has(a.subtype) || !a.rect || !trim || !overlaps(a.rect, trim)) continue;
      out.push({ checkId: 'annotations.in-trim', page: a.page, bbox: a.rect, measured: { subtype: a.subtype }, required: 'no printing annotations on the page' });
    }
  }
  const intent = settings.thresholds('document.output-intent');
  if (intent) {
    const pdfxIntent = doc.outputIntents.some((oi) => oi.subtype === 'GTS_PDFX');
    if (!pdfxIntent && (doc.pdfx !== null || intent.required === true)) {
      out.push({ checkId: 'document.output-intent', page: null, measured: { pdfx: doc.pdfx, outputIntents: doc.outputIntents.map((oi) => oi.subtype) }, required: { outputIntent: 'GTS_PDFX' } });
    }
  }
  if (on('document.analysis-incomplete')) {
    for (const p of input.pages) {
      for (const hit of p.inventory.limits) out.push({ checkId: 'document.analysis-incomplete', page: p.page, measured: { limit: hit.limit, detail: hit.detail }, required: 'all content analysed' });
    }
  }
  return out;
}

const LOCATION_TEXT: Record<string, string> = {
  'document-javascript': 'document JavaScript',
  'open-action': 'an action run when the file opens',
  'document-additional-action': 'document events',
  'page-additional-action': 'page events',
  'annotation-action': 'links or buttons',
  'annotation-additional-action': 'annotation events',
  'field-additional-action': 'form field events',
  'outline-action': 'bookmarks',
};

const LIMIT_TEXT: Record<LimitHit['limit'], string> = {
  operations: 'it has more drawing operations than preflight analyses',
  'form-depth': 'its graphics are nested deeper than preflight follows',
  'form-cycle': 'its graphics refer to themselves in a loop',
  'undecodable-content': 'part of its content could not be decoded',
  images: 'it places more images than preflight analyses',
  time: 'analysing it took longer than the time allowed',
};

export const DOCUMENT_MESSAGES = {
  'pdf.encrypted': ({ worst }) => {
    const m = worst.measured as { printingAllowed?: boolean | null } | true;
    const noPrint = typeof m === 'object' && m.printingAllowed === false;
    return `The PDF is encrypted${noPrint ? ' and its permissions do not allow printing' : ''}; some print workflows refuse or alter encrypted files, so send an unprotected version.`;
  },
  'document.repaired': ({ worst }) => {
    const repairs = (worst.measured as { repairs: string[] }).repairs.map((r) => (/^[A-Z][a-z]/.test(r) ? r.charAt(0).toLowerCase() + r.slice(1) : r).replace(/\.$/, ''));
    return `The PDF's internal structure is damaged and had to be repaired to read it (${repairs.join('; ')}); other programs may read it differently or refuse it. Export it again from the application that made it.`;
  },
  'document.javascript': ({ observations, count }) => {
    const where = [...new Set(observations.map((o) => LOCATION_TEXT[(o.measured as { location: string }).location] ?? 'actions'))];
    return `The PDF contains ${plural(count, 'JavaScript or launch action')} (${where.join(', ')}); print workflows ignore them and some refuse the file.`;
  },
  'document.embedded-files': ({ observations, count }) => {
    const names = observations.map((o) => quoted((o.measured as { name: string }).name));
    return `The PDF carries ${plural(count, 'embedded file')} (${shortList(names, 3)}); attachments do not print and some print workflows refuse them. Remove them before sending the file.`;
  },
  'document.layers': ({ worst }) => {
    const m = worst.measured as { layers: number; hidden: string[] };
    const hidden = m.hidden.length ? `, ${m.hidden.length} hidden by default (${shortList(m.hidden.map(quoted), 3)})` : '';
    return `The PDF has ${plural(m.layers, 'layer')}${hidden}; only the layers visible by default will print. Check that exactly the intended layers are visible, or flatten them.`;
  },
  'document.forms': ({ worst }) => {
    const n = (worst.measured as { fields: number }).fields;
    return `The PDF has ${plural(n, 'interactive form field')}; what a field shows may print differently or not at all unless the form is flattened before sending it.`;
  },
  'annotations.in-trim': ({ observations, count, pagesText }) => {
    const kinds = [...new Set(observations.map((o) => (o.measured as { subtype: string }).subtype))];
    return `${count === 1 ? 'An annotation' : `${count} annotations`} (${listText(kinds)}) on ${pagesText} ${count === 1 ? 'is' : 'are'} set to print and ${count === 1 ? 'lies' : 'lie'} on the finished page; ${count === 1 ? 'it' : 'they'} would print on top of the artwork. Remove ${count === 1 ? 'it' : 'them'}, or flatten ${count === 1 ? 'it' : 'them'} if meant to print.`;
  },
  'document.output-intent': ({ worst }) => {
    const m = worst.measured as { pdfx: string | null };
    return m.pdfx
      ? `The PDF claims ${m.pdfx} but has no PDF/X output intent, so the printing condition it was made for is unknown and the claim is invalid. Export it again as PDF/X.`
      : 'The PDF has no PDF/X output intent, so the printing condition it was made for is not stated. Export it as PDF/X-4 for this printing condition.';
  },
  'document.analysis-incomplete': ({ observations, pagesText }) => {
    const reasons = [...new Set(observations.map((o) => LIMIT_TEXT[(o.measured as { limit: LimitHit['limit'] }).limit] ?? 'a limit was reached'))];
    return `The content of ${pagesText} could not be analysed completely (${listText(reasons)}); problems there may be missing from this report.`;
  },
} satisfies Partial<Record<PdfCheckId, MessageWriter>>;
