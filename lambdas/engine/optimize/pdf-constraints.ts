/**
 * What a PDF's own nature forbids optimize to do, in sentences for the
 * customer:
 *
 * - a digitally signed file (a filled signature field, or usage rights or
 *   document permissions in the catalog's /Perms) is never rewritten: any
 *   rewrite breaks the signature's byte range, which readers report as an
 *   invalid signature;
 * - an encrypted file (owner password only; one that needs a password is
 *   refused when opened) is not rewritten either: we write files decrypted,
 *   and optimizing must not take its protection away;
 * - object streams are left out of files that claim a standard made before
 *   them or forbidding them: PDF/A-1 (ISO 19005-1 6.1.6) and PDF/X-1a and
 *   PDF/X-3, which are based on PDF 1.3 and 1.4.
 */
import { PDFDict, PDFName } from '@cantoo/pdf-lib';
import type { OpenedPdf } from '../core/load-pdf';
import { formFieldDicts, inheritedFieldEntry, inheritedFieldType } from '../core/form-fields';
import { getName, getNumber, getText, resolve } from '../core/pdf-objects';
import { readXmp } from '../core/xmp/identification';

/** Why the file must not be rewritten at all, or null. */
export function rewriteRefusal(pdf: OpenedPdf): string | null {
  if (isSigned(pdf)) return 'The file is digitally signed: rewriting it would invalidate the signature, so it is left as it is.';
  if (pdf.encryption !== null) return 'The file is encrypted (it has permission restrictions): optimizing would write it without its protection, so it is left as it is.';
  return null;
}

/** Why object streams must not be used, or null. */
export function objectStreamsRefusal(pdf: OpenedPdf): string | null {
  const xmp = readXmp(pdf.doc);
  if (xmp.pdfa?.part?.value === '1') return 'The file claims PDF/A-1, which does not allow object streams; its objects were written without them.';
  const info = resolve(pdf.doc.context, pdf.doc.context.trailerInfo.Info);
  const infoVersion = info instanceof PDFDict ? (getText(info, 'GTS_PDFXVersion') ?? getName(info, 'GTS_PDFXVersion')) : undefined;
  const pdfx = xmp.pdfxVersion ?? infoVersion ?? null;
  if (pdfx !== null && /PDF\/X-(1|3)/i.test(pdfx)) return `The file claims ${pdfx}, which does not allow object streams; its objects were written without them.`;
  return null;
}

function isSigned(pdf: OpenedPdf): boolean {
  const { doc } = pdf;
  const catalog = doc.catalog as PDFDict;
  if (resolve(doc.context, catalog.get(PDFName.of('Perms'))) instanceof PDFDict) return true;
  const acroForm = resolve(doc.context, catalog.get(PDFName.of('AcroForm')));
  // SigFlags bit 1: SignaturesExist (ISO 32000-1 12.7.2, Table 219).
  if (acroForm instanceof PDFDict && ((getNumber(acroForm, 'SigFlags') ?? 0) & 1) === 1) return true;
  return formFieldDicts(doc.context, catalog).some((f) => inheritedFieldType(f) === 'Sig' && resolve(doc.context, inheritedFieldEntry(f, 'V')) instanceof PDFDict);
}
