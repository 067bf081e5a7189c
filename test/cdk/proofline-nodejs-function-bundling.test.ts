import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ProoflineNodejsFunction } from '../../lib/constructs/proofline-nodejs-function';
import { repoPath } from '../../lib/paths';
import { assetDirOf, EM_AARCH64, elfHeader, nativeBinaries } from './support/bundle-files';
import { CDK_CONTEXT, TEST_ENV } from './support/synth';

/**
 * The bundling settings of ProoflineNodejsFunction on their own, with fixture handlers, so they are
 * proven whatever state the service's handlers are in.
 */
let outdir: string;
let template: Template;
let stack: Stack;
let esmFn: ProoflineNodejsFunction;
let nativeFn: ProoflineNodejsFunction;

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'proofline-nodejs-fn-'));
  const app = new App({ outdir, context: CDK_CONTEXT });
  stack = new Stack(app, 'ProoflineNodejsFunctionBundling', { env: TEST_ENV });
  esmFn = new ProoflineNodejsFunction(stack, 'Esm', {
    entry: 'test/cdk/fixtures/esm-runtime-handler.ts',
    memoryMb: 256,
    timeoutSeconds: 5,
  });
  nativeFn = new ProoflineNodejsFunction(stack, 'Native', {
    entry: 'test/cdk/fixtures/native-module-handler.ts',
    memoryMb: 256,
    timeoutSeconds: 5,
    runtimeFiles: { nativeModules: ['sharp'] },
  });
  template = Template.fromStack(stack);
  app.synth();
});

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

const idOf = (fn: ProoflineNodejsFunction): string => stack.getLogicalId(fn.node.defaultChild as never);

describe('a Proofline Nodejs function bundle', () => {
  it('is one ES module, index.mjs, opening with the require banner, with its source map beside it', () => {
    const dir = assetDirOf(outdir, template, idOf(esmFn));
    const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
    expect(code.startsWith("import { createRequire as __plCreateRequire } from 'node:module';")).toBe(true);
    expect(existsSync(join(dir, 'index.mjs.map'))).toBe(true);
    expect(code).toMatch(/\/\/# sourceMappingURL=index\.mjs\.map\s*$/);
  });

  it('runs under Node as ESM, with ESM-only and CommonJS dependencies, the bundled SDK and require', () => {
    const dir = assetDirOf(outdir, template, idOf(esmFn));
    const script = `import(${JSON.stringify(pathToFileURL(join(dir, 'index.mjs')).href)}).then(async (m) => console.log(JSON.stringify(await m.handler())))`;
    const out = execFileSync(process.execPath, ['--enable-source-maps', '-e', script], { cwd: dir, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({
      fileType: 'png',
      loopbackRange: 'loopback',
      sdkClient: 'function',
      requireType: 'function',
      nodeBuiltinViaRequire: 'function',
      dirnameType: 'string',
    });
  });

  it('contains no node_modules when it needs no native module', () => {
    expect(existsSync(join(assetDirOf(outdir, template, idOf(esmFn)), 'node_modules'))).toBe(false);
  });

  it('imports a native module from node_modules instead of bundling it', () => {
    const code = readFileSync(join(assetDirOf(outdir, template, idOf(nativeFn)), 'index.mjs'), 'utf8');
    expect(code).toMatch(/from\s*"sharp"/);
  });

  it('ships the native module’s linux-arm64 build, at the locked version, with its JavaScript dependencies', () => {
    const modules = join(assetDirOf(outdir, template, idOf(nativeFn)), 'node_modules');
    const lock = JSON.parse(readFileSync(repoPath('package-lock.json'), 'utf8')).packages;
    const version = (name: string): string => JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')).version;
    expect(version('sharp')).toBe(lock['node_modules/sharp'].version);
    for (const dep of Object.keys(lock['node_modules/sharp'].dependencies)) expect(existsSync(join(modules, dep, 'package.json')), dep).toBe(true);
    expect(existsSync(join(modules, '@img/sharp-linux-arm64'))).toBe(true);
    expect(existsSync(join(modules, '@img/sharp-libvips-linux-arm64'))).toBe(true);
    expect(existsSync(join(modules, '@img/sharp-linux-x64'))).toBe(false);

    const binaries = nativeBinaries(modules);
    expect(binaries.length).toBeGreaterThanOrEqual(2);
    for (const file of binaries) expect(elfHeader(file), file).toEqual({ elf: true, machine: EM_AARCH64 });
  });
});
