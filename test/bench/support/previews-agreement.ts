/**
 * First part of `npm run bench:previews`: page 1 of every real-world PDF
 * (../shared/corpus/realworld/pdfjs) rendered by our renderers (PDFium, and
 * pdf.js with --renderer pdfjs|both) and by three references at once, poppler
 * (`pdftoppm -r 72 -cropbox`), MuPDF (`mutool draw -r 72`) and Ghostscript
 * (`gs -r72 -dUseCropBox`), each compared pixel by pixel
 * (previews-image-compare.ts) and judged as previews-consensus.ts says. A
 * reference that is not installed is skipped with a message.
 *
 * Ours: the render pool (png, 72 dpi, page 1, no thumbnail) in a child process
 * of its own per lane (previews-render-pool.ts), so a file that hangs or
 * exhausts the renderer is ended alone; PDFium is measured without its pdf.js
 * fallback, and the production figures (PDFium, pdf.js for what PDFium
 * refuses) are derived when both renderers ran. Two files at a time (one per
 * core), each renderer and reference under a per-file time limit. A file that
 * fewer than two references render is not rendered by ours (it counts in no
 * figure). Images are written to a temporary directory and removed after each
 * file.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { forEachConcurrently } from './concurrency';
import { verdict, type OurStatus } from './previews-agreement-summary';
import {
  MEAN_CLOSEST_RMSE_TARGET,
  OUTLIER_SHARE_TARGET,
  PDFIUM_REFUSED,
  RENDERED_SHARE_TARGET,
  summarizeRenderer,
  withFallback,
  type ConsensusFileResult,
  type ReferenceId,
  type RendererId,
  type RendererOutcome,
} from './previews-consensus';
import { comparePageImages } from './previews-image-compare';
import { RenderChild, type RenderOutcome } from './previews-render-pool';
import { renderReference, type ReferenceName } from './previews-reference-renderers';
import { runTool } from './run-tool';

export const DEFAULT_CORPUS = path.resolve(import.meta.dirname, '../../../../shared/corpus/realworld/pdfjs');

export interface AgreementOptions {
  corpus: string;
  /** Only the first N files (by name), or all. */
  limit: number | null;
  /** Only these corpus files (names in the corpus directory), or all; a name not there is an error. */
  only?: readonly string[] | null;
  /** Files in flight at once. */
  concurrency: number;
  /** Per file, per renderer and per reference. */
  timeoutMs: number;
  /** Whether pdftoppm can be run. */
  withPoppler: boolean;
  /** The other references installed. */
  references: readonly ReferenceName[];
  renderers: readonly RendererId[];
  /** Where to write every file's result as JSON (for looking into the figures), or nowhere. */
  resultsFile?: string | null;
}

const OUR_PARAMS = { format: 'png', dpi: 72, pages: '1', thumbnail: false };

export async function runAgreement(o: AgreementOptions): Promise<void> {
  if (!existsSync(o.corpus)) {
    console.log(`\nPreview agreement: skipped — no corpus at ${o.corpus}.`);
    return;
  }
  const refs: ReferenceId[] = [...(o.withPoppler ? (['poppler'] as const) : []), ...o.references];
  if (refs.length < 2) {
    console.log(`\nPreview agreement: skipped — it needs two references of poppler, MuPDF and Ghostscript, and only ${refs.join(', ') || 'none'} is installed (apt-get install poppler-utils mupdf-tools ghostscript).`);
    return;
  }
  let all = readdirSync(o.corpus).filter((f) => f.toLowerCase().endsWith('.pdf')).sort();
  if (o.only) {
    const missing = o.only.filter((f) => !all.includes(f));
    if (missing.length) throw new Error(`--files names ${missing.length} file(s) not in ${o.corpus}: ${missing.slice(0, 5).join(', ')}`);
    const wanted = new Set(o.only);
    all = all.filter((f) => wanted.has(f));
  }
  const files = o.limit === null ? all : all.slice(0, o.limit);
  const work = await mkdtemp(path.join(tmpdir(), 'proofline-previews-agreement-'));
  const lanes = Array.from({ length: o.concurrency }, () => new RenderChild());
  const free = [...lanes];
  const results: ConsensusFileResult[] = [];
  const started = performance.now();
  try {
    await forEachConcurrently(files, o.concurrency, async (file, i) => {
      const lane = free.pop()!;
      try {
        results.push(await runFile(lane, path.join(o.corpus, file), path.join(work, String(i)), refs, o));
      } finally {
        free.push(lane);
      }
      if ((i + 1) % 50 === 0) console.log(`  … ${i + 1}/${files.length} files, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    });
  } finally {
    for (const lane of lanes) lane.close();
    await rm(work, { recursive: true, force: true });
  }
  results.sort((a, b) => a.file.localeCompare(b.file));
  if (o.resultsFile) await writeFile(o.resultsFile, JSON.stringify(results, null, 1));
  printAgreement(results, refs, o, (performance.now() - started) / 1000);
}

async function runFile(lane: RenderChild, file: string, dir: string, refs: readonly ReferenceId[], o: AgreementOptions): Promise<ConsensusFileResult> {
  const name = path.basename(file);
  await mkdir(dir, { recursive: true });
  try {
    // One after the other: a lane keeps one core busy, whichever renderer is running.
    const pngs = new Map<ReferenceId, string>();
    for (const ref of refs) {
      const png = ref === 'poppler' ? await runPdftoppm(file, dir, o.timeoutMs) : await renderReference(ref, file, dir, o.timeoutMs);
      if (png) pngs.set(ref, png);
    }
    const referencesRendered = [...pngs.keys()];
    let referenceSpread: number | null = null;
    for (let a = 0; a < referencesRendered.length; a++) {
      for (let b = a + 1; b < referencesRendered.length; b++) {
        const d = await rmseOrNull(pngs.get(referencesRendered[a]!)!, pngs.get(referencesRendered[b]!)!);
        if (d !== null) referenceSpread = Math.max(referenceSpread ?? 0, d);
      }
    }
    const result: ConsensusFileResult = { file: name, referencesRendered, referenceSpread, renderers: {} };
    if (referencesRendered.length < 2) return result;
    for (const renderer of o.renderers) {
      const outDir = path.join(dir, renderer);
      const ours = await lane.render({ path: file, outDir, params: OUR_PARAMS, renderer, fallback: false }, o.timeoutMs);
      const outcome: RendererOutcome = { ...ourStatus(ours), ms: ours.ms };
      const image = ours.ok ? ours.images.find((im) => im.role === 'preview' && im.page === 1)?.path : undefined;
      if (image) {
        outcome.rmse = {};
        for (const [ref, png] of pngs) {
          const d = await rmseOrNull(image, png);
          if (d !== null) outcome.rmse[ref] = d;
        }
      }
      delete (outcome as { image?: string }).image;
      result.renderers[renderer] = outcome;
    }
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function rmseOrNull(a: string, b: string): Promise<number | null> {
  try {
    return (await comparePageImages(a, b)).rmse;
  } catch {
    return null;
  }
}

function ourStatus(r: RenderOutcome): { status: OurStatus; reason?: string } {
  if (!r.ok) {
    const refused = r.name === 'UnprocessableFileError' || PDFIUM_REFUSED.test(r.message);
    const status: OurStatus = refused ? 'refused' : r.name === 'timeout' ? 'timeout' : r.name === 'crash' ? 'crash' : 'error';
    return { status, reason: status === 'error' ? `${r.name}: ${r.message}` : r.message };
  }
  if (r.images.some((im) => im.role === 'preview' && im.page === 1)) return { status: 'rendered' };
  const failure = r.failures.find((f) => f.page === 1) ?? r.failures[0];
  return { status: 'page-failed', reason: failure?.reason ?? 'no image and no reason' };
}

async function runPdftoppm(file: string, dir: string, timeoutMs: number): Promise<string | null> {
  const prefix = path.join(dir, 'poppler');
  // -cropbox: the visible area, as our previews show it (pdftoppm draws the MediaBox by default).
  const run = await runTool('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-cropbox', '-png', '-singlefile', file, prefix], timeoutMs);
  if (run.outcome === 'timeout') return null;
  // Poppler draws an encrypted file it cannot decrypt from the still-encrypted bytes (bug1782186:
  // "Unsupported version/revision (4/4) of Standard security handler"): that picture is no rendering.
  if (/security handler|incorrect password/i.test(run.stderr)) return null;
  // pdftoppm exits non-zero on some damaged files yet writes the page; the image is what counts.
  return existsSync(`${prefix}.png`) ? `${prefix}.png` : null;
}

const LABEL: Record<RendererId, string> = { pdfium: 'PDFium (alone, no fallback)', pdfjs: 'pdf.js' };

function printAgreement(results: ConsensusFileResult[], refs: readonly ReferenceId[], o: AgreementOptions, wallS: number): void {
  const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : 'n/a');
  const eligible = results.filter((r) => r.referencesRendered.length >= 2);
  const spreads = eligible.map((r) => r.referenceSpread).filter((v): v is number => v !== null);
  console.log(
    `\nPreview agreement: page 1 of ${results.length} real-world PDFs at 72 dpi, png; references ${refs.join(', ')}; renderers ${o.renderers.join(', ')}; ${o.concurrency} files at a time, ${o.timeoutMs / 1000} s per file and renderer; wall ${wallS.toFixed(0)} s.`,
  );
  console.log(`  pages at least two references render: ${eligible.length}/${results.length}; mean distance between references there (largest pair per page): ${spreads.length ? (spreads.reduce((a, b) => a + b, 0) / spreads.length).toFixed(4) : 'n/a'}`);
  const rows: [string, RendererId, ConsensusFileResult[]][] = o.renderers.map((id) => [LABEL[id], id, results]);
  if (o.renderers.includes('pdfium') && o.renderers.includes('pdfjs')) rows.push(['production (PDFium, pdf.js for what PDFium refuses)', 'pdfium', withFallback(results)]);
  const summaries = rows.map(([label, id, rs]) => ({ label, id, s: summarizeRenderer(rs, id) }));
  console.log(`  ${'renderer'.padEnd(52)} ${'rendered'.padStart(16)} ${'mean RMSE'.padStart(10)} ${'median'.padStart(8)} ${'outliers'.padStart(14)} ${'median ms'.padStart(10)}`);
  for (const { label, s } of summaries) {
    console.log(
      `  ${label.padEnd(52)} ${`${s.rendered}/${s.eligible} ${pct(s.renderedShare)}`.padStart(16)} ${s.meanClosestRmse.toFixed(4).padStart(10)} ${s.medianClosestRmse.toFixed(4).padStart(8)} ${`${s.outliers.length} ${pct(s.outlierShare)}`.padStart(14)} ${s.medianMs.toFixed(0).padStart(10)}`,
    );
  }
  for (const { label, s } of summaries.slice(0, o.renderers.length)) {
    if (s.failureReasons.length) {
      console.log(`  ${label}: not rendered`);
      for (const r of s.failureReasons) console.log(`    ${String(r.count).padStart(4)} × ${r.key}  [${r.files.slice(0, 4).join(', ')}${r.files.length > 4 ? ', …' : ''}]`);
    }
    if (s.outliers.length) {
      console.log(`  ${label}: outliers (distance to the closest reference > bound)`);
      for (const x of s.outliers.slice(0, 12)) console.log(`    ${x.closest.toFixed(4)} > ${x.bound.toFixed(4)}  ${x.file}`);
    }
  }
  for (const { label, s } of summaries) {
    console.log(`TARGET ${label}: rendered ≥ ${RENDERED_SHARE_TARGET * 100} % of the pages two references render: ${pct(s.renderedShare)} — ${verdict(s.renderedShare >= RENDERED_SHARE_TARGET)}`);
    console.log(`TARGET ${label}: mean RMSE to the closest reference ≤ ${MEAN_CLOSEST_RMSE_TARGET}: ${s.meanClosestRmse.toFixed(4)} — ${verdict(s.meanClosestRmse <= MEAN_CLOSEST_RMSE_TARGET)}`);
    console.log(`TARGET ${label}: outliers ≤ ${OUTLIER_SHARE_TARGET * 100} %: ${pct(s.outlierShare)} — ${verdict(s.outlierShare <= OUTLIER_SHARE_TARGET)}`);
  }
}
