/**
 * For the interactive rules' tests: a file built from a spec and an edit,
 * validated against one profile, and the annotations, appearance streams and
 * file specifications added to its first page. Each case starts from a fixture
 * that passes the rule and adds the one defect the rule is about.
 */
import { PDFArray, PDFDict, PDFName, PDFString, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { buildPdf, mutatePdf, type PdfSpec } from '../../../../support/pdf-fixtures';
import { tempFiles } from '../../temp-files';

const files = tempFiles('interactive-rules');

export async function failuresOfBytes(bytes: Uint8Array, profile: ValidateProfileCode) {
  const r = await validate({ path: files.write(bytes, 'pdf'), profiles: [profile] });
  return r.profiles[0]!.failures;
}

/** Every failure of a fixture built from a spec and an edit, validated against one profile. */
export async function failuresOf(spec: PdfSpec, profile: ValidateProfileCode, edit?: (d: PDFDocument) => unknown) {
  let bytes = await buildPdf(spec);
  if (edit) bytes = await mutatePdf(bytes, edit);
  const r = await validate({ path: files.write(bytes, 'pdf'), profiles: [profile] });
  return r.profiles[0]!.failures;
}

/** The failure of one rule for a fixture built from a spec and an edit, or undefined when the rule passed. */
export async function failureOf(ruleId: string, spec: PdfSpec, profile: ValidateProfileCode, edit?: (d: PDFDocument) => unknown) {
  let bytes = await buildPdf(spec);
  if (edit) bytes = await mutatePdf(bytes, edit);
  return (await failuresOfBytes(bytes, profile)).find((f) => f.ruleId === ruleId);
}

export const page0 = (d: PDFDocument) => d.getPage(0).node;
export const text = (s: string) => PDFString.of(s);
/** Entries without those given as undefined (to leave a key out). */
export const defined = (entries: Record<string, unknown>) => Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined)) as never;

/** An appearance stream: a form XObject with the given content (empty by default) and resources. */
export function appearance(d: PDFDocument, content = '', resources?: Record<string, unknown>): PDFRef {
  return d.context.register(d.context.stream(content, defined({ Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 10, 10], Resources: resources ? d.context.obj(resources as never) : undefined })));
}

/** Adds an annotation to page 1: a printable Square with a normal appearance unless entries say otherwise. */
export function addAnnot(d: PDFDocument, entries: Record<string, unknown> = {}): { ref: PDFRef; dict: PDFDict } {
  const dict = d.context.obj(defined({ Type: 'Annot', Subtype: 'Square', Rect: [50, 50, 150, 150], F: 4, AP: d.context.obj({ N: appearance(d) }), ...entries })) as unknown as PDFDict;
  const ref = d.context.register(dict);
  const annots = page0(d).lookup(PDFName.of('Annots'));
  if (annots instanceof PDFArray) annots.push(ref);
  else page0(d).set(PDFName.of('Annots'), d.context.obj([ref]));
  return { ref, dict };
}

/** addAnnot, and a Tabs entry of S on page 1 when it has none (PDF/UA asks for one on pages with annotations). */
export function addAnnotWithTabs(d: PDFDocument, entries: Record<string, unknown> = {}): { ref: PDFRef; dict: PDFDict } {
  const added = addAnnot(d, entries);
  if (!page0(d).has(PDFName.of('Tabs'))) page0(d).set(PDFName.of('Tabs'), PDFName.of('S'));
  return added;
}

/** The first structure element below the Document element (the fixture's content). */
export function firstContentElement(d: PDFDocument): PDFRef {
  const root = d.catalog.lookup(PDFName.of('StructTreeRoot')) as PDFDict;
  const docElem = d.context.lookup(root.get(PDFName.of('K')) as PDFRef) as PDFDict;
  return (docElem.lookup(PDFName.of('K')) as PDFArray).get(0) as PDFRef;
}

/** A file specification embedding a small text file; entries override or add keys. */
export function fileSpec(d: PDFDocument, entries: Record<string, unknown> = {}): PDFRef {
  const ef = d.context.register(d.context.stream('hello', { Type: 'EmbeddedFile', Subtype: 'text/plain' }));
  return d.context.register(d.context.obj(defined({ Type: 'Filespec', F: text('notes.txt'), UF: text('notes.txt'), Desc: text('Notes'), EF: d.context.obj({ F: ef, UF: ef }), ...entries })));
}

/** The file specification of the fixture's (only) embedded file. */
export function embeddedFileSpec(d: PDFDocument): PDFDict {
  const tree = (d.catalog.lookup(PDFName.of('Names')) as PDFDict).lookup(PDFName.of('EmbeddedFiles')) as PDFDict;
  return (tree.lookup(PDFName.of('Names')) as PDFArray).lookup(1) as PDFDict;
}

export const attachment = { name: 'notes.txt', bytes: Buffer.from('hello'), mimeType: 'text/plain', afRelationship: true };
