/**
 * Embedded files (PDF/A-1 6.1.11, A-2 6.8, A-3 6.8, A-4 6.9, UA-1 7.11, UA-2
 * 8.14.1 and 8.9.2.4.10). PDF/A-1 forbids them; A-2 allows only PDF/A files;
 * A-3 and A-4 allow any file that is described (file names, MIME type, its
 * relationship to the document); PDF/UA asks for names and descriptions a
 * reader can use.
 */
import { PDFDict, PDFStream } from '@cantoo/pdf-lib';
import { listEmbeddedFiles, type EmbeddedFileSpec } from '../../core/embedded-files';
import { getName, getText, name, resolve, resolvedItems } from '../../core/pdf-objects';
import { fact } from '../fact';
import { condition, eachOf, type Example, type Rule } from '../rule';
import { annotationExample, annotations } from './annotations';

/** The file specifications that embed a file, with their dictionaries (the model's list describes them; rules here need the keys). */
const embeddedSpecs = fact('embedded-file-specs', (m): EmbeddedFileSpec[] => {
  try {
    return listEmbeddedFiles(m.doc);
  } catch {
    return []; // a broken page tree or name tree: nothing reachable to judge
  }
});

/**
 * File specifications named by an AF (associated files) array anywhere in the
 * file: the catalog, pages, annotations, structure elements, XObjects… PDF/A-3
 * wants every embedded file associated with the document or a part of it.
 */
const associatedSpecs = fact('associated-file-specs', (m): Set<PDFDict> => {
  const out = new Set<PDFDict>();
  const ctx = m.context;
  for (const [, obj] of ctx.enumerateIndirectObjects()) {
    const d = obj instanceof PDFStream ? obj.dict : obj instanceof PDFDict ? obj : undefined;
    const af = d?.get(name('AF'));
    if (af === undefined) continue;
    for (const spec of resolvedItems(ctx, af)) if (spec instanceof PDFDict) out.add(spec);
  }
  return out;
});

const specExample = (s: EmbeddedFileSpec, what: string): Example => ({
  ...(s.page !== null ? { page: s.page } : {}),
  context: `embedded file "${s.name}" ${what}`,
});

/** A text entry that is present and non-empty. */
const nonEmptyText = (d: PDFDict, key: string) => (getText(d, key) ?? '').length > 0;

export const EMBEDDED_FILE_RULES: readonly Rule[] = [
  {
    id: 'pdfa.embedded-files.forbidden',
    clauses: { 1: '6.1.11' },
    description: 'No file shall be embedded: file specifications shall not contain the EF key and the name dictionary shall not contain EmbeddedFiles.',
    test: (f) => {
      const failures: Example[] = f.embeddedFiles.map((e) => ({ ...(e.page ? { page: e.page } : {}), context: `embedded file "${e.name}"` }));
      if (f.hasEmbeddedFilesTree && failures.length === 0) failures.push({ context: 'name dictionary has EmbeddedFiles' });
      return { checked: Math.max(1, f.embeddedFiles.length), failures };
    },
  },
  {
    id: 'pdfa.embedded-files.pdfa-only',
    clauses: { 2: '6.8', 4: '6.9' },
    // PDF/A-4e and -4f drop this requirement (4f exists to carry any file).
    levels: ['a', 'b', 'u', ''],
    description: (p) =>
      `An embedded file shall be a ${p.part === 4 ? 'PDF/A-1, PDF/A-2 or PDF/A-4' : 'PDF/A-1 or PDF/A-2'} file: Proofline validates each embedded PDF against the conformance it claims.`,
    test: (m, p) => {
      const parts = p.part === 4 ? /^[124]/ : /^[12]/;
      const checked = m.embeddedFiles.map((e, i) => ({ e, v: m.embeddedVerdicts[i] ?? null }));
      return eachOf(
        checked,
        ({ e, v }) => e.isPdf && v !== null && v.claim !== null && parts.test(v.claim) && v.compliant === true,
        ({ e, v }) => ({ context: `embedded file "${e.name}" ${!e.isPdf || v === null ? 'is not a PDF' : v.claim === null ? v.detail : !parts.test(v.claim) ? `claims PDF/A-${v.claim}` : `claims PDF/A-${v.claim} but ${v.detail}`}` }),
      );
    },
  },
  {
    id: 'pdfa.embedded-files.names',
    clauses: { 2: '6.8', 3: '6.8', 4: '6.9' },
    description: 'The file specification dictionary of an embedded file shall contain the F and UF keys.',
    test: (f) => eachOf(f.embeddedFiles, (e) => e.hasF && e.hasUF, (e) => ({ context: `embedded file "${e.name}" lacks ${[!e.hasF && 'F', !e.hasUF && 'UF'].filter(Boolean).join(' and ')}` })),
  },
  {
    id: 'pdfua.embedded-files.names',
    clauses: { ua1: '7.11' },
    description: 'The file specification dictionary of an embedded file shall contain non-empty F and UF keys, so a reader can tell what the file is.',
    test: (m) => eachOf(embeddedSpecs(m), (s) => nonEmptyText(s.spec, 'F') && nonEmptyText(s.spec, 'UF'), (s) => specExample(s, `lacks a non-empty ${[!nonEmptyText(s.spec, 'F') && 'F', !nonEmptyText(s.spec, 'UF') && 'UF'].filter(Boolean).join(' and ')}`)),
  },
  {
    id: 'pdfa.embedded-files.mime-type',
    clauses: { 3: '6.8', 4: '6.9' },
    description: 'The MIME type of an embedded file shall be given by the Subtype key of its stream (application/octet-stream when unknown).',
    test: (f) => eachOf(f.embeddedFiles, (e) => e.mimeType !== null && /^[-\w+.]+\/[-\w+.]+$/.test(e.mimeType), (e) => ({ context: `embedded file "${e.name}" has no valid MIME type` })),
  },
  {
    id: 'pdfa.embedded-files.relationship',
    clauses: { 3: '6.8', 4: '6.9' },
    description: 'The file specification dictionary of an embedded file shall contain an AFRelationship key.',
    test: (f) => eachOf(f.embeddedFiles, (e) => e.afRelationship !== null, (e) => ({ context: `embedded file "${e.name}" has no AFRelationship` })),
  },
  {
    id: 'pdfa.embedded-files.associated',
    clauses: { 3: '6.8' },
    description: 'Every embedded file shall be an associated file: its file specification shall be listed in the AF array of the document catalog or of the part of the document it relates to.',
    test: (m) => {
      const associated = associatedSpecs(m);
      return eachOf(embeddedSpecs(m), (s) => associated.has(s.spec), (s) => specExample(s, 'is not referenced from any AF array'));
    },
  },
  {
    id: 'pdfa.embedded-files.required',
    clauses: { 4: '6.9' },
    levels: ['f'],
    description: 'A PDF/A-4f file shall contain an EmbeddedFiles key in the name dictionary of the document catalog.',
    test: (f) => condition(f.hasEmbeddedFilesTree, { context: 'no EmbeddedFiles in the name dictionary' }),
  },
  {
    id: 'pdfua.embedded-files.description',
    clauses: { ua2: '8.14.1' },
    description: 'Every file specification in the EmbeddedFiles name tree shall have a Desc entry describing the file.',
    test: (m) => eachOf(embeddedSpecs(m).filter((s) => s.source === 'names'), (s) => s.spec.has(name('Desc')), (s) => specExample(s, 'has no Desc')),
  },
  {
    id: 'pdfua.file-attachments.relationship',
    clauses: { ua2: '8.9.2.4.10' },
    description: 'The file specification referenced by a FileAttachment annotation shall contain an AFRelationship entry.',
    test: (m) => {
      const withSpec = annotations(m).filter((a) => a.subtype === 'FileAttachment' && resolve(m.context, a.dict.get(name('FS'))) instanceof PDFDict);
      return eachOf(withSpec, (a) => getName(resolve(m.context, a.dict.get(name('FS'))) as PDFDict, 'AFRelationship') !== undefined, (a) => annotationExample(a, 'file specification has no AFRelationship'));
    },
  },
];
