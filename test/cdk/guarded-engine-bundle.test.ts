import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ProoflineNodejsFunction, workerFunctionProps } from '../../lib/constructs/proofline-nodejs-function';
import { WORKERS } from '../../step-definitions/workers';
import { buildPdf } from '../support/pdf-fixtures';
import { addPage, busyContent, save, stream, withFont } from '../unit/engine/optimize/fixtures';
import { manyPages } from '../unit/engine/guard/hostile-pdfs';
import { assetDirOf, hostRunnable } from './support/bundle-files';
import { CDK_CONTEXT, TEST_ENV } from './support/synth';

/**
 * The preflight, validate and optimize functions bundled exactly as the stack bundles
 * them (their WorkerSpecs through ProoflineNodejsFunction: one index.mjs, sharp beside
 * it), then run from a copy outside the repository. Both engines run in a
 * guarded thread, and in a bundle that thread must start from the bundle
 * itself: nothing else of the source tree is in the asset.
 */
let outdir: string;
let scratch: string;
let bundle: string;
let validateBundle: string;
let previewsBundle: string;
let optimizeBundle: string;

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'proofline-guarded-bundle-'));
  scratch = mkdtempSync(join(tmpdir(), 'proofline-guarded-run-'));
  const app = new App({ outdir, context: CDK_CONTEXT });
  const stack = new Stack(app, 'GuardedPreflightBundle', { env: TEST_ENV });
  const fn = new ProoflineNodejsFunction(stack, 'Preflight', workerFunctionProps(WORKERS.preflight));
  const validateFn = new ProoflineNodejsFunction(stack, 'Validate', workerFunctionProps(WORKERS.validate));
  const previewsFn = new ProoflineNodejsFunction(stack, 'Previews', workerFunctionProps(WORKERS.previews));
  const optimizeFn = new ProoflineNodejsFunction(stack, 'Optimize', workerFunctionProps(WORKERS.optimize));
  const template = Template.fromStack(stack);
  app.synth();
  bundle = hostRunnable(assetDirOf(outdir, template, stack.getLogicalId(fn.node.defaultChild as never)), join(scratch, 'bundle'));
  validateBundle = hostRunnable(assetDirOf(outdir, template, stack.getLogicalId(validateFn.node.defaultChild as never)), join(scratch, 'validate-bundle'));
  previewsBundle = hostRunnable(assetDirOf(outdir, template, stack.getLogicalId(previewsFn.node.defaultChild as never)), join(scratch, 'previews-bundle'));
  optimizeBundle = hostRunnable(assetDirOf(outdir, template, stack.getLogicalId(optimizeFn.node.defaultChild as never)), join(scratch, 'optimize-bundle'));
});

afterAll(() => {
  for (const dir of [outdir, scratch]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * What every script below gives a worker's run() besides its step: the input
 * file as step-input.ts gives one (downloaded, here: already on disk, or read
 * in ranges), the stored file it is (step-runner.ts's inputFile), and a time
 * budget as step-runner.ts gives one (lambdas/steps/step-budget.ts); runWorker
 * calls a worker's run() with them. Each script defines workDir first.
 */
const STEP_HARNESS = `
const fileInput = async (path) => { const { readFile, stat } = await import('node:fs/promises'); const { size } = await stat(path); return { size, local: async () => path, read: async (offset, length) => (await readFile(path)).subarray(offset, offset + length) }; };
const inputFile = { kind: 'file', role: 'source', fileName: 'flyer.pdf', mimeType: 'application/pdf' };
const budget = (ms) => { const end = Date.now() + ms; return { totalMs: ms, workMs: ms, workDeadline: end, storeDeadline: end, now: Date.now, workLeftMs: () => Math.max(0, end - Date.now()), storeLeftMs: () => Math.max(0, end - Date.now()) }; };
const runWorker = async (worker, config, step, path, name = 'flyer.pdf') => worker.run({
  // The step's page counts (step-progress.ts) go to a store that keeps them; nothing here reads them.
  services: { config, jobs: { recordStepPages: async () => {} } }, graph: { job: {}, tasks: [], steps: [step] }, job: { context: null },
  task: { id: 'task_1', name }, step, fileType: 'pdf', inputFile, input: await fileInput(path), workDir, budget: budget(300_000),
});
`;

/**
 * A script that calls a worker of a bundle (its export `worker`) twice: on the
 * input file with a budget (config `timeoutKey`) of 60 s, and with 1 ms on
 * the slow file; it prints `{ <report>, stopped }`, `stopped` being the second
 * call's error.
 */
function guardedScript(worker: string, timeoutKey: string, step: Record<string, unknown>, report: string): string {
  return `
const [indexUrl, inputPath, workDir, slowPath] = process.argv.slice(1);
const { ${worker} } = await import(indexUrl);
const config = { ${timeoutKey}: 60, engineMaxHeapMb: 512, engineMaxStreamMb: 256, engineMaxDecodedMb: 4096 };
const step = ${JSON.stringify(step)};
${STEP_HARNESS}
const work = (timeoutSeconds, path = inputPath) => runWorker(${worker}, { ...config, ${timeoutKey}: timeoutSeconds }, step, path);
const done = await work(60);
const stopped = await work(0.001, slowPath).then(() => null, (e) => ({ name: e.name, message: e.message }));
console.log(JSON.stringify({ ${report}, stopped }));
`;
}

/**
 * Calls the bundle's preflight worker twice: on a small file with the
 * configured budget, and with a budget of 1 ms on a 100,000-page file, whose
 * parse alone takes seconds. (A small file can finish inside 1 ms on a warm
 * thread: the interpreter stops early at the guard's soft deadline and still
 * reports, so a small file would make the second call a race.)
 */
const SCRIPT = guardedScript('preflightWorker', 'preflightTimeoutSeconds', { id: 'step_1', type: 'preflight', params: {} }, 'outcome: done.outcome, pages: done.result.summary.pages, summary: done.summary');

/**
 * Runs one of the scripts above from a bundle's copy, on `input` and on a
 * 100,000-page file (`slowPath`), in a work directory of its own (names start
 * with `prefix`); its last line of output, parsed.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function runGuardedScript(script: string, dir: string, prefix: string, input: Uint8Array): { result: any; workDir: string } {
  const inputPath = join(scratch, `${prefix}flyer.pdf`);
  writeFileSync(inputPath, input);
  const slowPath = join(scratch, `${prefix}many-pages.pdf`);
  writeFileSync(slowPath, manyPages(100_000));
  const workDir = join(scratch, `${prefix}work`);
  mkdirSync(workDir);
  const out = execFileSync(
    process.execPath,
    ['--enable-source-maps', '--input-type=module', '-e', script, pathToFileURL(join(dir, 'index.mjs')).href, inputPath, workDir, slowPath],
    { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '', AWS_REGION: 'eu-west-1' } },
  );
  return { result: JSON.parse(out.trim().split('\n').pop()!), workDir };
}

describe('the preflight Lambda bundle', () => {
  it('runs preflight in a guarded thread started from the bundle, and stops it at its budget', async () => {
    const { result, workDir } = runGuardedScript(SCRIPT, bundle, '', await buildPdf({ pages: 2 }));
    expect(result).toMatchObject({ pages: 2, summary: expect.stringMatching(/^The preflight step finished with outcome \w+ \(profile default/) });
    expect(result.stopped).toEqual({
      name: 'UnprocessableFileError',
      message: expect.stringMatching(/^Preflight stopped after 0\.001 s: the file is too complex to check within the time limit\./),
    });
    expect(JSON.parse(readFileSync(join(workDir, 'preflight-report.json'), 'utf8')).summary.pages).toBe(2);
  });
});

/** The validate worker from its bundle: a verdict on a small file, and a budget of 1 ms on a 100,000-page file. */
const VALIDATE_SCRIPT = guardedScript(
  'validateWorker',
  'validateTimeoutSeconds',
  { id: 'step_1', type: 'validate', params: { profile: ['2b', 'ua1'] } },
  'outcome: done.outcome, profiles: done.result.profiles.map((p) => p.matched)',
);

describe('the validate Lambda bundle', () => {
  it('runs validation in a guarded thread started from the bundle, and stops it at its budget', async () => {
    const { result, workDir } = runGuardedScript(VALIDATE_SCRIPT, validateBundle, 'validate-', await buildPdf({ pages: 2 }));
    expect(result).toMatchObject({ outcome: 'fail', profiles: ['2b', 'ua1'] });
    expect(result.stopped).toEqual({
      name: 'UnprocessableFileError',
      message: expect.stringMatching(/^Validation stopped after 0\.001 s: the file is too complex to validate within the time limit\./),
    });
    expect(JSON.parse(readFileSync(join(workDir, 'validation-report.json'), 'utf8')).profiles).toHaveLength(2);
  });
});

/** The optimize worker from its bundle: a smaller file from a bloated one, and a budget of 1 ms on a 100,000-page file. */
const OPTIMIZE_SCRIPT = guardedScript(
  'optimizeWorker',
  'optimizeTimeoutSeconds',
  { id: 'step_1', type: 'optimize', params: {} },
  'outcome: done.outcome, result: done.result, outputs: done.outputs.map((o) => ({ role: o.artifact.role, path: o.path }))',
);

describe('the optimize Lambda bundle', () => {
  it('optimizes in a guarded thread started from the bundle, and stops it at its budget', async () => {
    // Uncompressed page content: recompressing it makes the file smaller.
    const { doc, font } = await withFont();
    addPage(doc, stream(doc, busyContent(), null), font);
    const { result } = runGuardedScript(OPTIMIZE_SCRIPT, optimizeBundle, 'optimize-', await save(doc));
    expect(result).toMatchObject({ outcome: 'fixed', result: { changed: true }, outputs: [{ role: 'optimized' }] });
    expect(statSync(result.outputs[0].path).size).toBe(result.result.sizeBytes);
    expect(result.result.sizeBytes).toBeLessThan(result.result.sizeBytesBefore);
    expect(result.stopped).toEqual({
      name: 'UnprocessableFileError',
      message: expect.stringMatching(/^Optimizing stopped after 0\.001 s: the file is too complex to optimize within the time limit\./),
    });
  });
});

/**
 * Page images are rendered in threads started from the bundle (render-pool.ts):
 * the previews worker from its bundle, and the preflight worker's proof images
 * from the preflight bundle, which ships canvas and pdfjs' data for them. Each
 * runs with PDFJS_ASSETS_DIR at its own bundle's pdfjs/, as the function's
 * environment sets it (/var/task/pdfjs).
 */
const RENDER_SCRIPT = `
const [mode, indexUrl, inputPath, workDir] = process.argv.slice(1);
const mod = await import(indexUrl);
const config = { preflightTimeoutSeconds: 60, engineMaxHeapMb: 512, engineMaxStreamMb: 256, engineMaxDecodedMb: 4096 };
const step = mode === 'previews' ? { id: 'step_1', type: 'previews', params: { format: 'png', dpi: 36 } } : { id: 'step_1', type: 'preflight', params: { profileId: 'gwg-sheetfed-cmyk' } };
const worker = mode === 'previews' ? mod.previewsWorker : mod.preflightWorker;
${STEP_HARNESS}
const result = await runWorker(worker, config, step, inputPath, 'file.pdf');
console.log(JSON.stringify(result.outputs.map((o) => o.artifact.role + (o.artifact.page ? ':' + o.artifact.page : ''))));
process.exit(0);
`;

function runFromBundle(mode: 'previews' | 'preflight', dir: string, inputPath: string): string[] {
  const workDir = join(scratch, `${mode}-render-work`);
  mkdirSync(workDir, { recursive: true });
  const out = execFileSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', RENDER_SCRIPT, mode, pathToFileURL(join(dir, 'index.mjs')).href, inputPath, workDir], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
    env: { PATH: process.env.PATH ?? '', AWS_REGION: 'eu-west-1', PDFJS_ASSETS_DIR: join(dir, 'pdfjs') },
  });
  return JSON.parse(out.trim().split('\n').pop()!);
}

describe('the previews and preflight Lambda bundles', () => {
  it('render page images in threads started from the previews bundle itself', async () => {
    const pagesPath = join(scratch, 'pages.pdf');
    writeFileSync(pagesPath, await buildPdf({ pages: 2 }));
    expect(runFromBundle('previews', previewsBundle, pagesPath)).toEqual(['preview:1', 'preview:2', 'thumbnail:1']);
  });

  it('render proof images of preflight findings from the preflight bundle', async () => {
    const lowResPath = join(scratch, 'low-res.pdf');
    writeFileSync(lowResPath, await buildPdf({ pages: 1, pageDefaults: { image: { widthPx: 40, heightPx: 40, placedWidthPt: 200, placedHeightPt: 200 } } }));
    expect(runFromBundle('preflight', bundle, lowResPath)).toEqual(['preflight-report', 'proof:1']);
  });
});
