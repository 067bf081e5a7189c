/**
 * The import rules of the code base, read from the sources by dependency-cruiser:
 * - no import cycles anywhere in the deployed or local code, type-only imports
 *   included (a type cycle is where a value cycle starts, and a value cycle is a
 *   load-order bug: whichever module of the circle loads first sees the others'
 *   bindings uninitialised);
 * - the PDF engine's `core` is the bottom layer: nothing in it imports from the
 *   engine layers above it (guard, detect, preflight, validate, autofix,
 *   fix-catalogue, previews) nor from the platform, the domain or an adapter.
 *   The one exception is the domain's error vocabulary (lambdas/domain/errors.ts,
 *   which imports nothing): a file core cannot read ends in the same
 *   UnprocessableFileError whichever layer finds it;
 * - the one logger and tracer (lambdas/observability/) import nothing of ours
 *   outside their folder, so every layer may log without importing upwards.
 */
import { cruise, type ICruiseResult, type IFlattenedRuleSet } from 'dependency-cruiser';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const SOURCE_ROOTS = ['lambdas', 'step-definitions', 'lib', 'local', 'bin'];

const RULES: IFlattenedRuleSet = {
  forbidden: [
    { name: 'no-cycle', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'core-is-the-bottom-layer',
      severity: 'error',
      from: { path: '^lambdas/engine/core/' },
      to: { path: '^(lambdas/(?!engine/core/)|step-definitions/|lib/|local/|bin/)', pathNot: '^lambdas/domain/errors\\.ts$' },
    },
    {
      name: 'observability-imports-nothing-of-ours',
      severity: 'error',
      from: { path: '^lambdas/observability/' },
      to: { path: '^(lambdas/(?!observability/)|step-definitions/|lib/|local/|bin/|web/)' },
    },
  ],
};

let result: ICruiseResult;

beforeAll(async () => {
  const previous = process.cwd();
  process.chdir(root); // dependency-cruiser resolves paths and tsconfig from the working directory
  try {
    const output = await cruise(
      SOURCE_ROOTS,
      {
        validate: true,
        ruleSet: RULES,
        tsPreCompilationDeps: true,
        doNotFollow: { path: 'node_modules' },
        exclude: { path: '(^|/)node_modules/' },
      },
      {},
      { tsConfig: { fileName: 'tsconfig.json' } },
    );
    result = output.output as ICruiseResult;
  } finally {
    process.chdir(previous);
  }
}, 120_000);

/** Each violation of a rule as one readable line: the import, and for a cycle the whole circle. */
function violations(rule: string): string[] {
  return result.summary.violations
    .filter((v) => v.rule.name === rule)
    .map((v) => (v.cycle?.length ? [v.from, ...v.cycle.map((c) => c.name)].join(' → ') : `${v.from} → ${v.to}`));
}

describe('imports', () => {
  it('reads every source root', () => {
    const modules = result.modules.map((m) => m.source);
    for (const dir of SOURCE_ROOTS) expect(modules.some((m) => m.startsWith(`${dir}/`))).toBe(true);
  });

  it('form no cycle, type-only imports included', () => {
    expect(violations('no-cycle')).toEqual([]);
  });

  it('keep the engine core at the bottom: nothing in lambdas/engine/core imports from above it', () => {
    expect(violations('core-is-the-bottom-layer')).toEqual([]);
  });

  it('keep the logger and tracer importable from every layer: lambdas/observability imports nothing of ours', () => {
    expect(violations('observability-imports-nothing-of-ours')).toEqual([]);
  });
});
