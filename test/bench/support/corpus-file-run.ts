/**
 * One corpus file through both sides of the agreement bench: our guarded
 * preflight (report, error with a reason, or crash, timed) and poppler's
 * `pdffonts` and `pdfimages -list` (each under its own time limit).
 */
import type { PreflightInput, PreflightResult } from '../../../lambdas/engine/preflight';
import { parsePdffonts, type PopplerFontRow } from './pdffonts-output';
import { parsePdfimagesList, type PopplerImageRow } from './pdfimages-output';
import { reportFacts, type ReportFacts } from './report-facts';
import { runTool } from './run-tool';

export type GuardedPreflight = (input: PreflightInput, limits?: { timeoutMs?: number }) => Promise<PreflightResult>;

export type OurRun =
  | { status: 'report'; ms: number; facts: ReportFacts | { missing: string } }
  /** UnprocessableFileError: the file is refused with a sentence for the customer. */
  | { status: 'error'; ms: number; reason: string }
  /** Anything else: our fault. */
  | { status: 'crash'; ms: number; error: string };

export type PopplerRun =
  | { status: 'ok'; fonts: PopplerFontRow[]; images: PopplerImageRow[]; ms: number }
  | { status: 'failed' | 'timeout'; tool: string; detail: string }
  | { status: 'skipped' };

export interface FileRun {
  file: string;
  ours: OurRun;
  poppler: PopplerRun;
}

/**
 * The report lists at most a few hundred image placements (findings cover all
 * of them); the comparison wants every one, so it asks for the whole list
 * under this input field. An engine that does not know the field ignores it,
 * and capped files are then left out of the image figure (agreement-summary).
 */
export const LIST_ALL_IMAGES = { maxListedImages: Number.MAX_SAFE_INTEGER };

export async function runOurs(preflight: GuardedPreflight, path: string, timeoutMs: number): Promise<OurRun> {
  const t0 = performance.now();
  const input: PreflightInput = { path, fileType: 'pdf', profileId: 'default', context: null, ...LIST_ALL_IMAGES };
  try {
    const result = await preflight(input, { timeoutMs });
    return { status: 'report', ms: performance.now() - t0, facts: reportFacts(result.report) };
  } catch (err) {
    const ms = performance.now() - t0;
    const e = err as { name?: string; message?: string };
    if (e?.name === 'UnprocessableFileError') return { status: 'error', ms, reason: String(e.message) };
    return { status: 'crash', ms, error: `${e?.name ?? 'Error'}: ${String(e?.message ?? err).split('\n')[0]}` };
  }
}

export async function runPoppler(path: string, timeoutMs: number): Promise<PopplerRun> {
  const fonts = await runTool('pdffonts', [path], timeoutMs);
  if (fonts.outcome !== 'ok') return { status: fonts.outcome, tool: 'pdffonts', detail: firstLine(fonts.stderr) };
  const images = await runTool('pdfimages', ['-list', path], timeoutMs);
  if (images.outcome !== 'ok') return { status: images.outcome, tool: 'pdfimages -list', detail: firstLine(images.stderr) };
  return { status: 'ok', fonts: parsePdffonts(fonts.stdout), images: parsePdfimagesList(images.stdout), ms: fonts.ms + images.ms };
}

function firstLine(text: string): string {
  return text.split('\n').find((l) => l.trim() !== '')?.trim().slice(0, 160) ?? '';
}
