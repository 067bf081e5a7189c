/**
 * PDF/UA rules Proofline checks so far (ISO 14289-1 and -2): identification,
 * tagging, metadata title, language and font embedding. Structure-tree
 * semantics (reading order, alternative text, tables, headings) are not checked
 * yet, which is why no PDF/UA profile can report compliance.
 */
import { PDFArray, PDFDict, type PDFDocument } from '@cantoo/pdf-lib';
import { getDict, getName, name, resolve, resolvedItems } from '../core/pdf-objects';
import { mapsToUnicode } from './pdfa-rules';
import { condition, eachOf, type Rule } from './rule';

const LANG_TAG = /^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/;

export const PDFUA_RULES: readonly Rule[] = [
  {
    id: 'pdfua.metadata.identification',
    clauses: { ua1: '5', ua2: '5' },
    description: 'The PDF/UA part shall be declared in XMP with the PDF/UA identification schema (pdfuaid).',
    test: (f) => condition(f.facts.xmp.pdfua?.part != null, { context: 'XMP has no pdfuaid:part' }),
  },
  {
    id: 'pdfua.metadata.part',
    clauses: { ua1: '5', ua2: '5' },
    description: (p) => `The value of pdfuaid:part shall be ${p.part}.`,
    test: (f, p) => {
      const part = f.facts.xmp.pdfua?.part?.value.trim();
      return condition(part === String(p.part), { context: part ? `pdfuaid:part is "${part}"` : 'pdfuaid:part is missing' });
    },
  },
  {
    id: 'pdfua.metadata.revision',
    clauses: { ua2: '5' },
    description: 'The value of pdfuaid:rev shall be a four-digit year.',
    test: (f) => {
      const rev = f.facts.xmp.pdfua?.rev?.value.trim();
      return condition(rev !== undefined && /^\d{4}$/.test(rev), { context: rev ? `pdfuaid:rev is "${rev}"` : 'pdfuaid:rev is missing' });
    },
  },
  {
    id: 'pdfua.tagged.marked',
    clauses: { ua1: '6.2', ua2: '6.2' },
    description: 'The document catalog shall include a MarkInfo dictionary whose Marked entry is true.',
    test: (f) => condition(f.facts.markInfo?.marked === true, { context: f.facts.markInfo ? 'MarkInfo Marked is not true' : 'catalog has no MarkInfo' }),
  },
  {
    id: 'pdfua.tagged.suspects',
    clauses: { ua1: '7.1' },
    description: 'The MarkInfo Suspects entry shall not be true.',
    test: (f) => condition(f.facts.markInfo?.suspects !== true, { context: 'MarkInfo Suspects is true' }),
  },
  {
    id: 'pdfua.tagged.structure',
    clauses: { ua1: '7.1', ua2: '8.2.1' },
    description: 'The logical structure shall be described by a structure hierarchy rooted in the catalog\'s StructTreeRoot.',
    test: (f) => condition(f.facts.structTreeRoot, { context: 'catalog has no StructTreeRoot' }),
  },
  {
    id: 'pdfua.structure.document-root',
    clauses: { ua2: '8.2.5.2' },
    description: 'The structure tree root shall contain a single Document structure element as its only child.',
    test: (f) => {
      const kids = rootKidTypes(f.doc);
      return condition(kids.length === 1 && kids[0] === 'Document', { context: kids.length ? `structure root children: ${kids.join(', ')}` : 'structure root has no children' });
    },
  },
  {
    id: 'pdfua.metadata.present',
    clauses: { ua1: '7.1', ua2: '8.11.1' },
    description: 'The document catalog shall contain a Metadata stream with an XMP packet.',
    test: (f) => condition(f.facts.xmp.present && f.facts.xmp.readable, { context: f.facts.xmp.present ? 'the Metadata stream holds no readable XMP' : 'the catalog has no Metadata' }),
  },
  {
    id: 'pdfua.metadata.title',
    clauses: { ua1: '7.1', ua2: '8.11.1' },
    description: 'The XMP metadata shall contain a dc:title entry.',
    test: (f) => condition(!!f.facts.xmp.dcTitle, { context: 'XMP has no dc:title' }),
  },
  {
    id: 'pdfua.display-doc-title',
    clauses: { ua1: '7.1', ua2: '8.11.2' },
    description: 'The catalog\'s ViewerPreferences shall contain DisplayDocTitle with the value true.',
    test: (f) => condition(f.facts.displayDocTitle === true, { context: f.facts.displayDocTitle === null ? 'DisplayDocTitle is not set' : 'DisplayDocTitle is false' }),
  },
  {
    id: 'pdfua.lang.present',
    clauses: { ua1: '7.2', ua2: '8.4.4' },
    description: 'The default natural language shall be given by a non-empty Lang entry in the document catalog. (Proofline does not yet accept languages set only on structure elements.)',
    test: (f) => condition(!!f.facts.lang, { context: 'catalog has no Lang' }),
  },
  {
    id: 'pdfua.lang.valid',
    clauses: { ua1: '7.2', ua2: '8.4.4' },
    description: 'A Lang entry in the document catalog shall be a language identifier (BCP 47). (Proofline checks the catalog\'s Lang only.)',
    test: (f) => condition(f.facts.lang === null || LANG_TAG.test(f.facts.lang), { context: `Lang is "${f.facts.lang}"` }),
  },
  {
    id: 'pdfua.fonts.embedded',
    clauses: { ua1: '7.21.4.1', ua2: '8.4.5.5.1' },
    description: 'The font programs of all fonts used for rendering shall be embedded (text in rendering mode 3 is exempt).',
    test: (f) => eachOf(f.fonts.filter((u) => u.visible), (u) => u.info.embedded, (u) => ({ page: u.pages[0], ...(u.objectNumber ? { objectNumber: u.objectNumber } : {}), context: `font ${u.info.name} (${u.info.type}) is not embedded` })),
  },
  {
    id: 'pdfua.fonts.unicode',
    clauses: { ua1: '7.21.7' },
    description: 'Every font shall map its character codes to Unicode, through a ToUnicode CMap or a standard encoding.',
    test: (f) => eachOf(f.fonts, (u) => mapsToUnicode(u.info), (u) => ({ page: u.pages[0], ...(u.objectNumber ? { objectNumber: u.objectNumber } : {}), context: `font ${u.info.name} has no ToUnicode map` })),
  },
];

/** Standard types of the structure root's children (RoleMap applied once). */
function rootKidTypes(doc: PDFDocument): string[] {
  const ctx = doc.context;
  const root = getDict(doc.catalog as PDFDict, 'StructTreeRoot');
  if (!root) return [];
  const roleMap = getDict(root, 'RoleMap');
  const k = resolve(ctx, root.get(name('K')));
  const kids = k instanceof PDFArray ? resolvedItems(ctx, k) : k ? [k] : [];
  return kids
    .filter((kid): kid is PDFDict => kid instanceof PDFDict)
    .map((kid) => {
      const s = getName(kid, 'S') ?? '?';
      return getName(roleMap, s) ?? s;
    });
}
