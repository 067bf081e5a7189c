/**
 * The renderers besides pdftoppm that bench:previews renders each first page
 * with (previews-agreement.ts), so our image is judged against the consensus
 * of several (previews-consensus.ts) rather than poppler alone: MuPDF
 * (`mutool draw`) and Ghostscript (`gs -sDEVICE=png16m`), each when installed
 * (apt-get install mupdf-tools ghostscript).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runTool, toolsAvailable } from './run-tool';

export type ReferenceName = 'MuPDF' | 'Ghostscript';

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
