/**
 * The figures of the previews agreement bench from its per-file results:
 * how many first pages we rendered without error, and how close our images
 * are to poppler's (RMSE on a 0–1 scale; mean, median, worst files).
 *
 * Three shares are given for "rendered without error":
 * - over all files, the bar read strictly: a file we refuse (even with
 *   a reason, even one poppler cannot render either) counts against us;
 * - over the files that do not need a password that neither side has: a file
 *   that needs a user password cannot be rendered by anyone without it, so a
 *   file we refuse for its password AND pdftoppm cannot open either leaves
 *   the denominator (the target line uses this share and says so). A file we
 *   refuse for a password that pdftoppm does open (an empty owner password,
 *   an Encrypt dictionary that only protects attachments) stays in it,
 *   against us;
 * - over the files poppler rendered, i.e. pages known to be renderable.
 * Only pages both sides rendered have an RMSE; pages poppler failed on are not
 * comparable and are counted apart.
 */
import { median } from './concurrency';
import type { PageComparison } from './previews-image-compare';

export type OurStatus =
  /** Page 1 delivered as an image. */
  | 'rendered'
  /** The file was refused with a reason (UnprocessableFileError). */
  | 'refused'
  /** The file opened, but page 1 failed alone with a reason. */
  | 'page-failed'
  /** Anything else: an unexpected error, a timeout or a dead render process. */
  | 'error'
  | 'timeout'
  | 'crash';

export interface AgreementFileResult {
  file: string;
  ours: OurStatus;
  /** Why ours did not render, when it did not. */
  reason?: string;
  oursMs: number;
  poppler: 'ok' | 'failed' | 'timeout';
  /** Present when both sides rendered and the images could be compared. */
  comparison?: PageComparison;
  /** With --references: other renderers' RMSE against the same poppler image (previews-reference-renderers.ts). */
  references?: Partial<Record<'MuPDF' | 'Ghostscript', number>>;
}

export interface AgreementSummary {
  files: number;
  rendered: number;
  renderedShare: number;
  /** Files we refuse for a password that pdftoppm cannot open either (see the top of this file). */
  needPassword: string[];
  /** Files we refuse for a password that pdftoppm renders: they count against us. */
  passwordOnlyForUs: string[];
  /** Rendered, over all files but `needPassword`. */
  renderedShareWithoutPasswords: number;
  popplerRendered: number;
  /** Of the files poppler rendered, how many we rendered. */
  renderedWherePopplerDid: number;
  renderedShareWherePopplerDid: number;
  popplerFailed: number;
  compared: number;
  meanRmse: number;
  medianRmse: number;
  /** Compared pages whose sizes differ by more than rounding. */
  sizeDifferent: number;
  worst: AgreementFileResult[];
  /** Our non-rendered outcomes by status and first words of the reason, most frequent first. */
  failureReasons: { key: string; count: number; files: string[] }[];
}

export function summarizeAgreement(results: readonly AgreementFileResult[], worstCount = 10): AgreementSummary {
  const rendered = results.filter((r) => r.ours === 'rendered');
  const popplerOk = results.filter((r) => r.poppler === 'ok');
  const compared = results.filter((r): r is AgreementFileResult & { comparison: PageComparison } => r.comparison !== undefined);
  const errors = compared.map((r) => r.comparison.rmse);
  const refusedForPassword = results.filter((r) => r.ours === 'refused' && PASSWORD_REASON.test(r.reason ?? ''));
  const needPassword = refusedForPassword.filter((r) => r.poppler !== 'ok').map((r) => r.file);
  const reasons = new Map<string, string[]>();
  for (const r of results) {
    if (r.ours === 'rendered') continue;
    const key = `${r.ours}: ${(r.reason ?? '').split(/[:;.]/)[0]!.trim().slice(0, 80)}`;
    reasons.set(key, [...(reasons.get(key) ?? []), r.file]);
  }
  return {
    files: results.length,
    rendered: rendered.length,
    renderedShare: share(rendered.length, results.length),
    needPassword,
    passwordOnlyForUs: refusedForPassword.filter((r) => r.poppler === 'ok').map((r) => r.file),
    renderedShareWithoutPasswords: share(rendered.length, results.length - needPassword.length),
    popplerRendered: popplerOk.length,
    renderedWherePopplerDid: popplerOk.filter((r) => r.ours === 'rendered').length,
    renderedShareWherePopplerDid: share(popplerOk.filter((r) => r.ours === 'rendered').length, popplerOk.length),
    popplerFailed: results.length - popplerOk.length,
    compared: compared.length,
    meanRmse: errors.length ? errors.reduce((a, b) => a + b, 0) / errors.length : NaN,
    medianRmse: median(errors),
    sizeDifferent: compared.filter((r) => r.comparison.sizes === 'different').length,
    worst: [...compared].sort((a, b) => b.comparison.rmse - a.comparison.rmse).slice(0, worstCount),
    failureReasons: [...reasons].map(([key, files]) => ({ key, count: files.length, files })).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key)),
  };
}

/** How our refusal of a file that needs a password reads (page-render.ts' openDocument). */
export const PASSWORD_REASON = /protected by a password/i;

function share(part: number, whole: number): number {
  return whole === 0 ? NaN : part / whole;
}

/** "met" or "NOT MET" for a figure against its target; a figure that could not be measured is not met. */
export function verdict(met: boolean): string {
  return met ? 'met' : 'NOT MET';
}
