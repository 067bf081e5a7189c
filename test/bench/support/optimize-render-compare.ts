/**
 * Does an optimized PDF's first page look like the original's? For
 * `npm run bench:optimize`: both first pages rendered at 72 dpi by pdftoppm
 * and compared by RMSE on a 0–1 scale (previews-image-compare.ts).
 *
 * pdftoppm does not always render the same file the same way twice.
 * issue19634.pdf (Skia's blur test, soft-masked gradients) came out
 * different on every run: eight renderings of the unchanged original, eight
 * different PNGs, up to RMSE 0.054 apart, while MuPDF and Ghostscript drew
 * it identically each time, and drew our output identical to the original.
 * Such a file would count as damaged by noise. So when pdftoppm finds a
 * difference above the limit, the original is rendered by it once more: if the original does
 * not even match itself, pdftoppm cannot judge that file and MuPDF (`mutool
 * draw`) does, on both, after proving that it renders the original the same
 * twice. Without a stable renderer the pdftoppm verdict stands.
 */
import { existsSync } from 'node:fs';
import { RMSE_LIMIT } from './optimize-summary';
import { comparePageImages } from './previews-image-compare';
import { runTool, toolsAvailable } from './run-tool';

export type PageRenderer = 'pdftoppm' | 'mutool';

const ARGS: Record<PageRenderer, (file: string, png: string) => string[]> = {
  pdftoppm: (file, png) => ['-r', '72', '-f', '1', '-l', '1', '-png', '-singlefile', file, png.slice(0, -'.png'.length)],
  mutool: (file, png) => ['draw', '-q', '-r', '72', '-o', png, file, '1'],
};

export interface RenderComparison {
  /** First-page RMSE between output and original (at least 1 when the page sizes differ); null: not compared. */
  rmse: number | null;
  /** The original's first page renders but the output's does not. */
  renderLost?: boolean;
  /** Set when pdftoppm rendered the original differently on two runs and MuPDF judged the file instead. */
  judgedBy?: 'mutool';
  /** pdftoppm was unstable on the original and no stable second renderer was at hand: its verdict stands. */
  unstable?: boolean;
}

export class FirstPageJudge {
  readonly withPdftoppm = toolsAvailable('pdftoppm');
  private readonly withMutool = toolsAvailable('mutool');

  constructor(private readonly timeoutMs: number) {}

  /** The first page of `file` as a PNG at `png`, or null when the renderer wrote none. */
  async render(renderer: PageRenderer, file: string, png: string): Promise<string | null> {
    const run = await runTool(renderer, ARGS[renderer](file, png), this.timeoutMs);
    return run.outcome !== 'timeout' && existsSync(png) ? png : null;
  }

  /** The original's first page by pdftoppm, rendered once per file and passed to compare(). */
  original(file: string, prefix: string): Promise<string | null> {
    return this.withPdftoppm ? this.render('pdftoppm', file, `${prefix}-orig.png`) : Promise.resolve(null);
  }

  async compare(originalFile: string, originalPng: string | null, output: string, prefix: string): Promise<RenderComparison> {
    if (!originalPng) return { rmse: null };
    const page = await this.render('pdftoppm', output, `${prefix}.png`);
    if (!page) return { rmse: null, renderLost: true };
    const first = await rmseOf(page, originalPng);
    if (first <= RMSE_LIMIT) return { rmse: first };
    const again = await this.render('pdftoppm', originalFile, `${prefix}-orig-again.png`);
    if (again && (await rmseOf(again, originalPng)) === 0) return { rmse: first };
    if (!this.withMutool) return { rmse: first, unstable: true };
    const [a, b, out] = await Promise.all([
      this.render('mutool', originalFile, `${prefix}-mu-orig-a.png`),
      this.render('mutool', originalFile, `${prefix}-mu-orig-b.png`),
      this.render('mutool', output, `${prefix}-mu-out.png`),
    ]);
    if (!a || !b || (await rmseOf(a, b)) !== 0) return { rmse: first, unstable: true };
    if (!out) return { rmse: null, renderLost: true, judgedBy: 'mutool' };
    return { rmse: await rmseOf(out, a), judgedBy: 'mutool' };
  }
}

/** RMSE of two page images; a page of another size is a visible change whatever the pixels say. */
async function rmseOf(a: string, b: string): Promise<number> {
  const c = await comparePageImages(a, b);
  return c.sizes === 'different' ? Math.max(c.rmse, 1) : c.rmse;
}
