import { spawnSync } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';

/**
 * Every module taking part in the shared content pass loads first, in a fresh
 * module graph, without meeting a dependency half-initialised. An import cycle
 * through the collector list once made `graphics/graphics-use.ts`, loaded
 * first, throw "Cannot access 'graphicsUse' before initialization" under Node
 * (and leave a hole in the collector list under Vitest's module runner).
 */
const validate = '../../../../lambdas/engine/validate';
const firstModules = [
  'graphics/graphics-use',
  'graphics/colour-use',
  'fonts/glyph-use',
  'file-structure/operator-use',
  'structure/marked-content',
  'structure/struct-tree',
  'content-pass',
  'model',
  'rule',
];

describe('content pass modules load in any order', () => {
  it.each(firstModules)('%s loaded first leaves every collector defined', async (path) => {
    vi.resetModules();
    await import(`${validate}/${path}`);
    const { CONTENT_COLLECTORS } = await import(`${validate}/content-collectors`);
    for (const collector of CONTENT_COLLECTORS) expect(typeof collector?.create).toBe('function');
  });

  it('graphics/graphics-use.ts loads first under Node', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', "await import('./lambdas/engine/validate/graphics/graphics-use.ts');"], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
