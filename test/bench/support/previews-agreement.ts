/**
 * First part of `npm run bench:previews`: page 1 of every real-world PDF
 * (../shared/corpus/realworld/pdfjs) rendered by our engine and by
 * `pdftoppm -r 72 -cropbox`, compared pixel by pixel (previews-image-compare.ts).
 *
 * Ours: renderPreviews (png, 72 dpi, page 1, no thumbnail) in a child process
 * of its own per lane (previews-render-pool.ts), so a file that hangs or
 * exhausts the renderer is ended alone. Two files at a time (one per core),
 * each side under a per-file time limit. Images are written to a temporary
 * directory and removed after each file.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { forEachConcurrently } from './concurrency';
import { summarizeAgreement, verdict, type AgreementFileResult, type OurStatus } from './previews-agreement-summary';
import { comparePageImages } from './previews-image-compare';
import { RenderChild, type RenderOutcome } from './previews-render-pool';
import { referenceRmse, referenceSummary, type ReferenceName } from './previews-reference-renderers';
import { runTool } from './run-tool';

export const DEFAULT_CORPUS = path.resolve(import.meta.dirname, '../../../../shared/corpus/realworld/pdfjs');

export interface AgreementOptions {
  corpus: string;
  /** Only the first N files (by name), or all. */
  limit: number | null;
  /** Files in flight at once. */
  concurrency: number;
  /** Per file and per side. */
  timeoutMs: number;
  /** Whether pdftoppm can be run; without it only our side is measured. */
  withPoppler: boolean;
  /** Where to write every file's result as JSON (for looking into the figures), or nowhere. */
  resultsFile?: string | null;
  /** Also measure MuPDF and Ghostscript against pdftoppm, for scale (those installed). */
  references?: readonly ReferenceName[];
}

export const RENDERED_SHARE_TARGET = 0.99;
export const MEAN_RMSE_TARGET = 0.03;

const OUR_PARAMS = { format: 'png', dpi: 72, pages: '1', thumbnail: false };

export async function runAgreement(o: AgreementOptions): Promise<void> {
  if (!existsSync(o.corpus)) {
    console.log(`\nPreview agreement: skipped — no corpus at ${o.corpus}.`);
    return;
  }
  const all = readdirSync(o.corpus).filter((f) => f.toLowerCase().endsWith('.pdf')).sort();
  const files = o.limit === null ? all : all.slice(0, o.limit);
  const work = await mkdtemp(path.join(tmpdir(), 'proofline-previews-agreement-'));
  const lanes = Array.from({ length: o.concurrency }, () => new RenderChild());
  const free = [...lanes];
  const results: AgreementFileResult[] = [];
  const started = performance.now();
  try {
    await forEachConcurrently(files, o.concurrency, async (file, i) => {
      const lane = free.pop()!;
      try {
        results.push(await runFile(lane, path.join(o.corpus, file), path.join(work, String(i)), o));
      } finally {
        free.push(lane);
      }
      if ((i + 1) % 100 === 0) console.log(`  … ${i + 1}/${files.length} files, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    });
  } finally {
    for (const lane of lanes) lane.close();
    await rm(work, { recursive: true, force: true });
  }
  if (o.resultsFile) await writeFile(o.resultsFile, JSON.stringify(results, null, 1));
  printAgreement(results, o, (performance.now() - started) / 1000);
}

async function runFile(lane: RenderChild, file: string, dir: string, o: AgreementOptions): Promise<AgreementFileResult> {
  const name = path.basename(file);
  const oursDir = path.join(dir, 'ours');
  await mkdir(oursDir, { recursive: true });
  try {
    // One after the other: a lane keeps one core busy, whichever side is running.
    const ours = await lane.render({ path: file, outDir: oursDir, params: OUR_PARAMS }, o.timeoutMs);
    const poppler = o.withPoppler ? await runPdftoppm(file, dir, o.timeoutMs) : null;
    const { status, reason, image } = ourStatus(ours);
    const result: AgreementFileResult = { file: name, ours: status, ...(reason ? { reason } : {}), oursMs: ours.ms, poppler: poppler?.status ?? 'failed' };
    if (image && poppler?.status === 'ok') {
      try {
        result.comparison = await comparePageImages(image, poppler.png);
      } catch (e) {
        // An image we wrote that sharp cannot read back is our fault.
        Object.assign(result, { ours: 'error', reason: `our image could not be decoded: ${(e as Error).message}` });
      }
    }
    if (poppler?.status === 'ok' && o.references?.length) result.references = await referenceRmse(file, dir, poppler.png, o.timeoutMs, o.references);
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function ourStatus(r: RenderOutcome): { status: OurStatus; reason?: string; image?: string } {
  if (!r.ok) {
    const status: OurStatus = r.name === 'UnprocessableFileError' ? 'refused' : r.name === 'timeout' ? 'timeout' : r.name === 'crash' ? 'crash' : 'error';
    return { status, reason: status === 'error' ? `${r.name}: ${r.message}` : r.message };
  }
  const image = r.images.find((im) => im.role === 'preview' && im.page === 1);
  if (image) return { status: 'rendered', image: image.path };
  const failure = r.failures.find((f) => f.page === 1) ?? r.failures[0];
  return { status: 'page-failed', reason: failure?.reason ?? 'no image and no reason' };
}

async function runPdftoppm(file: string, dir: string, timeoutMs: number): Promise<{ status: 'ok'; png: string } | { status: 'failed' | 'timeout' }> {
  const prefix = path.join(dir, 'poppler');
  // -cropbox: the visible area, as our previews show it (pdftoppm draws the MediaBox by default).
  const run = await runTool('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-cropbox', '-png', '-singlefile', file, prefix], timeoutMs);
  if (run.outcome === 'timeout') return { status: 'timeout' };
  // Poppler draws an encrypted file it cannot decrypt from the still-encrypted bytes (bug1782186:
  // "Unsupported version/revision (4/4) of Standard security handler"): that picture is no rendering.
  if (/security handler|incorrect password/i.test(run.stderr)) return { status: 'failed' };
  // pdftoppm exits non-zero on some damaged files yet writes the page; the image is what counts.
  return existsSync(`${prefix}.png`) ? { status: 'ok', png: `${prefix}.png` } : { status: 'failed' };
}

function printAgreement(results: AgreementFileResult[], o: AgreementOptions, wallS: number): void {
  const s = summarizeAgreement(results);
  const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : 'n/a');
  console.log(`\nPreview agreement: page 1 of ${s.files} real-world PDFs, ours (png, 72 dpi) against pdftoppm -r 72 -cropbox, ${o.concurrency} files at a time, ${o.timeoutMs / 1000} s per file and side; wall ${wallS.toFixed(0)} s.`);
  console.log(`  rendered without error: ${s.rendered}/${s.files} = ${pct(s.renderedShare)} of all files; ${s.renderedWherePopplerDid}/${s.popplerRendered} = ${pct(s.renderedShareWherePopplerDid)} of the files pdftoppm rendered`);
  console.log(`  needs a password: ${s.needPassword.length}, excluded from the share of the target line, as pdftoppm cannot render them either: ${s.rendered}/${s.files - s.needPassword.length} = ${pct(s.renderedShareWithoutPasswords)}`);
  if (s.passwordOnlyForUs.length) console.log(`  refused for a password although pdftoppm opens them (counted against us): ${s.passwordOnlyForUs.length}  [${s.passwordOnlyForUs.join(', ')}]`);
  for (const r of s.failureReasons) console.log(`    ${String(r.count).padStart(4)} × ${r.key}  [${r.files.slice(0, 4).join(', ')}${r.files.length > 4 ? ', …' : ''}]`);
  if (!o.withPoppler) {
    console.log('  comparison with poppler skipped: pdftoppm not found (apt-get install poppler-utils)');
  } else {
    console.log(`  not comparable (pdftoppm failed or timed out on page 1): ${s.popplerFailed}; compared: ${s.compared}, of which ${s.sizeDifferent} with a page size differing by more than 2 px (compared after resizing)`);
    console.log(`  RMSE against pdftoppm (0–1): mean ${s.meanRmse.toFixed(4)}, median ${s.medianRmse.toFixed(4)}`);
    const refs = o.references?.length ? referenceSummary(results, o.references) : null;
    if (refs) {
      const others = Object.entries(refs.references).map(([n, v]) => `${n} ${v.toFixed(4)}`).join(', ');
      console.log(`  for scale, other renderers against pdftoppm on the ${refs.files} files all of them rendered: mean RMSE ${others}; ours ${refs.ours.toFixed(4)}`);
    }
    console.log('  worst files:');
    for (const r of s.worst) {
      const c = r.comparison!;
      const size = c.sizes === 'same' ? `${c.poppler.width}×${c.poppler.height}` : `ours ${c.ours.width}×${c.ours.height}, poppler ${c.poppler.width}×${c.poppler.height}`;
      console.log(`    ${c.rmse.toFixed(4)}  ${r.file} (${size})`);
    }
  }
  console.log(
    `TARGET rendered without error ≥ ${RENDERED_SHARE_TARGET * 100} % of the files that need no password (${s.needPassword.length} excluded; of all files: ${pct(s.renderedShare)}): ${pct(s.renderedShareWithoutPasswords)} — ${verdict(s.renderedShareWithoutPasswords >= RENDERED_SHARE_TARGET)}`,
  );
  if (o.withPoppler) console.log(`TARGET mean RMSE against pdftoppm ≤ ${MEAN_RMSE_TARGET}: ${s.meanRmse.toFixed(4)} — ${verdict(s.meanRmse <= MEAN_RMSE_TARGET)}`);
}
