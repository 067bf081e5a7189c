/**
 * For scale (bench:previews --references): how close two other mature PDF
 * renderers, MuPDF (`mutool draw`) and Ghostscript (`gs -sDEVICE=png16m`), get
 * to pdftoppm on the same first pages, measured exactly as ours is
 * (previews-image-compare.ts). The mean RMSE bar is a distance to poppler, not
 * to the truth: these figures show what that distance is for renderers that
 * are not poppler. Informative only; no target depends on them. Each tool is
 * used when installed (apt-get install mupdf-tools ghostscript).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AgreementFileResult } from './previews-agreement-summary';
import { comparePageImages } from './previews-image-compare';
import { runTool, toolsAvailable } from './run-tool';

export type ReferenceName = 'MuPDF' | 'Ghostscript';
export type ReferenceRmse = Partial<Record<ReferenceName, number>>;

const RENDERERS: { name: ReferenceName; tool: string; args: (file: string, png: string) => string[] }[] = [
  { name: 'MuPDF', tool: 'mutool', args: (file, png) => ['draw', '-q', '-r', '72', '-o', png, file, '1'] },
  {
    name: 'Ghostscript',
    tool: 'gs',
    // Anti-aliased text and graphics, the visible (crop) area, page 1 only: as pdftoppm and we render it.
    args: (file, png) => ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=png16m', '-r72', '-dTextAlphaBits=4', '-dGraphicsAlphaBits=4', '-dUseCropBox', '-dFirstPage=1', '-dLastPage=1', `-sOutputFile=${png}`, file],
  },
];

/** The reference renderers installed here. */
export function availableReferences(): ReferenceName[] {
  return RENDERERS.filter((r) => toolsAvailable(r.tool)).map((r) => r.name);
}

/** Page 1 of `file` by one reference renderer, as a PNG in `dir`; null when it wrote none. */
export async function renderReference(name: ReferenceName, file: string, dir: string, timeoutMs: number): Promise<string | null> {
  const r = RENDERERS.find((x) => x.name === name)!;
  const png = path.join(dir, `${r.tool}.png`);
  await runTool(r.tool, r.args(file, png), timeoutMs);
  return existsSync(png) ? png : null;
}

/** Page 1 of `file` by each installed reference renderer, compared with poppler's image; a renderer that fails is left out. */
export async function referenceRmse(file: string, dir: string, popplerPng: string, timeoutMs: number, names: readonly ReferenceName[]): Promise<ReferenceRmse> {
  const out: ReferenceRmse = {};
  for (const r of RENDERERS.filter((x) => names.includes(x.name))) {
    const png = path.join(dir, `${r.tool}.png`);
    await runTool(r.tool, r.args(file, png), timeoutMs);
    if (!existsSync(png)) continue;
    try {
      out[r.name] = (await comparePageImages(png, popplerPng)).rmse;
    } catch {
      // An image the tool wrote but sharp cannot read: no figure for it.
    }
  }
  return out;
}

/** Mean RMSE against pdftoppm of ours and of each reference, over the files every one of them rendered. */
export function referenceSummary(results: readonly AgreementFileResult[], names: readonly ReferenceName[]): { files: number; ours: number; references: Record<string, number> } | null {
  const common = results.filter((r) => r.comparison && names.every((n) => r.references?.[n] !== undefined));
  if (common.length === 0) return null;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    files: common.length,
    ours: mean(common.map((r) => r.comparison!.rmse)),
    references: Object.fromEntries(names.map((n) => [n, mean(common.map((r) => r.references![n]!))])),
  };
}
