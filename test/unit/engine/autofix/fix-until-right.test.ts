import { readdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OrderContext } from '../../../../lambdas/domain/model';
import { autofix, type AutofixInput } from '../../../../lambdas/engine/autofix/index';
import { preflight } from '../../../../lambdas/engine/preflight/index';
import { buildPdf, type PdfSpec } from '../../../support/pdf-fixtures';
import { tempFiles } from '../temp-files';

const files = tempFiles('autofix-rounds');

/** Preflights the file (default profile), as the preflight step before autofix does, and returns what it recommends. */
async function recommendedFor(path: string, context: OrderContext | null = null): Promise<string[]> {
  return (await preflight({ path, fileType: 'pdf', profileId: 'default', context })).report.recommendedFixes;
}

const fixableLeft = async (path: string, context: OrderContext | null = null) =>
  (await preflight({ path, fileType: 'pdf', profileId: 'default', context })).report.findings.filter((f) => f.fix.available).map((f) => f.checkId);

async function fixRecommended(spec: PdfSpec, opts: Partial<AutofixInput> = {}) {
  const path = files.write(await buildPdf(spec), 'pdf');
  const outPath = `${path}.fixed.pdf`;
  const recommended = await recommendedFor(path, opts.context ?? null);
  const result = await autofix({ path, outPath, items: null, recommended, profileId: 'default', context: null, ...opts });
  return { path, outPath, recommended, result };
}

/** The files in the fixture directory that belong to this output: the fixed file and nothing else. */
const leftBeside = (outPath: string) => readdirSync(dirname(outPath)).filter((f) => f.startsWith(basename(outPath)));

describe('autofix without items works until the file is right', () => {
  it('adds the bleed a page lacks once boxes.normalize has given it a TrimBox, in a second round', async () => {
    // A page without a TrimBox: preflight can only say the TrimBox is missing. Once boxes.normalize sets it to the
    // MediaBox, the page has no bleed, which bleed.mirror adds: the first preflight could not have recommended it.
    const { outPath, recommended, result } = await fixRecommended({ pages: 1 });
    expect(recommended).toContain('boxes.normalize');
    expect(recommended).not.toContain('bleed.mirror');
    expect(result.rounds.map((r) => r.applied.map((a) => a.fixId))).toEqual([['boxes.normalize'], ['bleed.mirror']]);
    expect(result.applied.map((a) => a.fixId)).toEqual(['boxes.normalize', 'bleed.mirror']);
    expect(result.stoppedBecause).toBe('no-fixable-findings');
    expect(result.runtimeParams).toMatchObject({ rounds: 2, stoppedBecause: 'no-fixable-findings', fixes: ['boxes.normalize'], laterRounds: [['bleed.mirror']] });
    expect(await fixableLeft(outPath)).toEqual([]);
    expect(leftBeside(outPath)).toEqual([basename(outPath)]);
  });

  it('runs explicit items once, as asked, even when a check afterwards would recommend more', async () => {
    const path = files.write(await buildPdf({ pages: 1 }), 'pdf');
    const outPath = `${path}.fixed.pdf`;
    const result = await autofix({ path, outPath, items: ['boxes.normalize'], recommended: null, profileId: 'default', context: null });
    expect(result.rounds).toHaveLength(1);
    expect(result.stoppedBecause).toBe('items');
    expect(await fixableLeft(outPath)).toContain('bleed.insufficient');
  });

  it('stops after the round limit, keeping what the rounds so far made', async () => {
    const { outPath, result } = await fixRecommended({ pages: 1 }, { maxRounds: 1 });
    expect(result).toMatchObject({ changed: true, stoppedBecause: 'round-limit' });
    expect(result.rounds).toHaveLength(1);
    expect(leftBeside(outPath)).toEqual([basename(outPath)]);
  });

  it('starts no further round when the time left is less than twice what the rounds so far took', async () => {
    const { result } = await fixRecommended({ pages: 1 }, { deadline: Date.now() });
    expect(result).toMatchObject({ changed: true, stoppedBecause: 'time' });
    expect(result.rounds).toHaveLength(1);
  });

  it('ends when a round changes nothing, and keeps the last file that changed', async () => {
    // Recommending a fix with nothing to do: the first round changes nothing, so there is no output at all.
    const path = files.write(await buildPdf({ pages: 1 }), 'pdf');
    const outPath = `${path}.fixed.pdf`;
    const result = await autofix({ path, outPath, items: null, recommended: ['actions.remove'], profileId: 'default', context: null });
    expect(result).toMatchObject({ changed: false, stoppedBecause: 'nothing-changed', applied: [] });
    expect(result.skipped.map((s) => s.fixId)).toEqual(['actions.remove']);
    expect(leftBeside(outPath)).toEqual([]);
  });

  it('applies what is recommended in a later round to the file the earlier round wrote, with the same order context', async () => {
    // With the ordered bleed of 5 mm and an artwork size smaller than the page, boxes.normalize centres the TrimBox
    // and grows the BleedBox by 5 mm; nothing is left for a second round to do.
    const context: OrderContext = { artworkSize: { width_mm: 150, height_mm: 200 }, bleed: { required_mm: 5 } };
    const { outPath, result } = await fixRecommended({ pages: 1 }, { context });
    expect(result.rounds[0]!.applied.map((a) => a.fixId)).toContain('boxes.normalize');
    expect(await fixableLeft(outPath, context)).toEqual([]);
  });
});
