/**
 * Verdicts on embedded PDFs. PDF/A-2 and -3 (6.8) and PDF/A-4 (6.9) require
 * an embedded file to be a PDF/A file itself, which a claim in its XMP does not
 * show: each embedded PDF that claims a PDF/A conformance is validated against
 * that claim, with the same rules, before the outer file's rules run (they are
 * synchronous predicates over the model). Nesting is followed to a fixed
 * depth; deeper files, and files too large to open here, are reported as not
 * verified rather than assumed compliant.
 */
import type { PDFDocument } from '@cantoo/pdf-lib';
import { listEmbeddedFiles } from '../core/embedded-files';
import { findPdfSignature } from '../core/file-header';
import { openPdfBytes, type OpenedPdf } from '../core/load-pdf';
import { streamBytes } from '../core/pdf-objects';
import { readXmp } from '../core/xmp/identification';
import { claimedProfiles, type ConcreteCode } from './profiles';

export interface EmbeddedVerdict {
  /** The PDF/A conformance the embedded PDF claims (`2b`), null when none. */
  claim: ConcreteCode | null;
  /** Complies with its claim; null when it could not be verified (too deep, too large, unreadable). */
  compliant: boolean | null;
  /** Ids of the rules it fails, or why it was not verified. */
  detail: string;
}

/** Embedded files deeper than this (a PDF in a PDF in a PDF…) are not validated. */
export const MAX_EMBEDDED_DEPTH = 3;
const MAX_VALIDATED_BYTES = 64 * 1024 * 1024;

export type ValidateOpened = (pdf: OpenedPdf, code: ConcreteCode, depth: number) => Promise<{ compliant: boolean; failedRules: string[] }>;

/** One entry per embedded file, in the order of listEmbeddedFiles (and so of readEmbeddedFiles); null for files that are not PDFs. */
export async function embeddedVerdicts(doc: PDFDocument, depth: number, validateOpened: ValidateOpened): Promise<(EmbeddedVerdict | null)[]> {
  const out: (EmbeddedVerdict | null)[] = [];
  for (const { file } of listEmbeddedFiles(doc)) {
    let bytes: Uint8Array | null = null;
    try {
      bytes = file ? streamBytes(file) : null;
    } catch {
      bytes = null;
    }
    if (!bytes || findPdfSignature(bytes.subarray(0, 1024)) < 0) {
      out.push(null);
      continue;
    }
    out.push(await verdictOf(bytes, depth, validateOpened));
  }
  return out;
}

async function verdictOf(bytes: Uint8Array, depth: number, validateOpened: ValidateOpened): Promise<EmbeddedVerdict> {
  if (bytes.length > MAX_VALIDATED_BYTES) return { claim: null, compliant: null, detail: `larger than ${MAX_VALIDATED_BYTES / 1024 / 1024} MB, not validated` };
  let inner: OpenedPdf;
  try {
    inner = await openPdfBytes(bytes);
  } catch {
    return { claim: null, compliant: null, detail: 'cannot be read' };
  }
  const claim = claimedProfiles(readXmp(inner.doc)).find((c): c is { code: ConcreteCode } => 'code' in c && !c.code.startsWith('ua'))?.code ?? null;
  if (claim === null) return { claim, compliant: null, detail: 'claims no PDF/A conformance' };
  if (depth + 1 > MAX_EMBEDDED_DEPTH) return { claim, compliant: null, detail: `nested more than ${MAX_EMBEDDED_DEPTH} levels deep, not validated` };
  const verdict = await validateOpened(inner, claim, depth + 1);
  return { claim, compliant: verdict.compliant, detail: verdict.compliant ? 'complies' : `fails ${verdict.failedRules.slice(0, 3).join(', ')}${verdict.failedRules.length > 3 ? ', …' : ''}` };
}
