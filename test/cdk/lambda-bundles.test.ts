import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Template } from 'aws-cdk-lib/assertions';
import { AUTHORIZER_ENTRY, ROUTES, routeEntry } from '../../lambdas/api/routes';
import { RUNNING_JOB_AGE_ENTRY } from '../../lib/constructs/running-job-age';
import { WORKERS } from '../../step-definitions/workers';
import { RETENTION_SWEEP_ENTRY } from '../../lib/constructs/retention-sweep';
import { assetDirOf, EM_AARCH64, elfHeader, hostRunnable, nativeBinaries } from './support/bundle-files';
import { repoPath } from '../../lib/paths';
import { synthProofline } from './support/synth';
import { functionIdByEntry } from './support/template-queries';

/**
 * The stack as `npx cdk synth` bundles it, real handler modules and all: what
 * would be uploaded for each function. Slow (every function is bundled), so
 * it is synthesized once for the whole file.
 */
let outdir: string;
let template: Template;
let placeholderEntries: string[];

// Bundling every function (~30) takes 140 s on a quiet 2-core machine and over 400 s on a busy
// one; the config's 180 s hook limit is for ordinary setups.
beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'proofline-cdk-out-'));
  ({ template, placeholderEntries } = synthProofline({ bundleInto: outdir }));
}, 600_000);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

const ALL_ENTRIES = [AUTHORIZER_ENTRY, ...new Set(ROUTES.map(routeEntry)), ...Object.values(WORKERS).map((w) => w.entry), RETENTION_SWEEP_ENTRY, RUNNING_JOB_AGE_ENTRY];

const bundleOf = (entry: string): string => assetDirOf(outdir, template, functionIdByEntry(template, entry));
const lockVersion = (name: string): string =>
  JSON.parse(readFileSync(repoPath('package-lock.json'), 'utf8')).packages[`node_modules/${name}`].version;
const installedVersion = (bundle: string, name: string): string =>
  JSON.parse(readFileSync(join(bundle, 'node_modules', name, 'package.json'), 'utf8')).version;

describe('the synthesized Lambda bundles', () => {
  it('were built from the real handler modules (none missing)', () => {
    expect(placeholderEntries).toEqual([]);
  });

  it.each(ALL_ENTRIES)(
    '%s has its bundle main file with the require banner and a source map',
    (entry) => {
      const bundle = bundleOf(entry);
      const main = readFileSync(join(bundle, 'index.mjs'), 'utf8');
      expect(main.startsWith('import { createRequire as __plCreateRequire }')).toBe(true);
      expect(existsSync(join(bundle, 'index.mjs.map'))).toBe(true);
    },
  );
});

describe('the one logger and tracer (Powertools for AWS Lambda)', () => {
  it.each(ALL_ENTRIES)('are bundled into %s, not left for a runtime that does not provide them', (entry) => {
    const bundle = bundleOf(entry);
    const main = readFileSync(join(bundle, 'index.mjs'), 'utf8');
    expect(main).toContain('POWERTOOLS_LOG_LEVEL');
    expect(main).toContain('POWERTOOLS_TRACE_ENABLED');
    expect(existsSync(join(bundle, 'node_modules/@aws-lambda-powertools'))).toBe(false);
  });
});

describe('the previews function bundle', () => {
  let bundle: string;
  beforeAll(() => {
    bundle = bundleOf(WORKERS.previews.entry);
  });

  it('has its main file', () => {
    expect(existsSync(join(bundle, 'index.mjs'))).toBe(true);
  });

  it('ships sharp and @napi-rs/canvas at their locked versions, as linux-arm64 builds', () => {
    expect(installedVersion(bundle, 'sharp')).toBe(lockVersion('sharp'));
    expect(installedVersion(bundle, '@napi-rs/canvas')).toBe(lockVersion('@napi-rs/canvas'));
    expect(existsSync(join(bundle, 'node_modules/@img/sharp-linux-arm64/package.json'))).toBe(true);
    expect(existsSync(join(bundle, 'node_modules/@napi-rs/canvas-linux-arm64-gnu/package.json'))).toBe(true);
  });

  it('contains only AArch64 ELF binaries (e_machine 0xB7), sharp’s, libvips’ and canvas’', () => {
    const binaries = nativeBinaries(join(bundle, 'node_modules'));
    for (const file of binaries) expect(elfHeader(file), file).toEqual({ elf: true, machine: EM_AARCH64 });
    expect(binaries.some((f) => /sharp-linux-arm64.*\.node$/.test(f))).toBe(true);
    expect(binaries.some((f) => /canvas-linux-arm64-gnu.*\.node$/.test(f))).toBe(true);
    expect(binaries.some((f) => /sharp-libvips-linux-arm64\/lib\/libvips-cpp\.so/.test(f))).toBe(true);
  });

  it('carries no build for the machine it was bundled on', () => {
    const packages = readdirSync(join(bundle, 'node_modules/@img'));
    expect(packages.filter((p) => !p.includes('arm64') && p !== 'colour')).toEqual([]);
  });

  it('carries PDFium’s wasm, at the locked version, with its licences and the notices of what it compiles in, under pdfium/', () => {
    const pkg = join(repoPath('node_modules/@embedpdf/pdfium'));
    expect(lockVersion('@embedpdf/pdfium')).toBe(JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version);
    const wasm = readFileSync(join(bundle, 'pdfium/pdfium.wasm'));
    expect([...wasm.subarray(0, 4)]).toEqual([0x00, 0x61, 0x73, 0x6d]);
    expect(wasm.equals(readFileSync(join(pkg, 'dist/pdfium.wasm')))).toBe(true);
    expect(readFileSync(join(bundle, 'pdfium/LICENSE.embedpdf'), 'utf8')).toMatch(/MIT License/);
    expect(readFileSync(join(bundle, 'pdfium/LICENSE.pdfium'), 'utf8')).toMatch(/PDFium Authors[\s\S]*Apache License/);
    const notices = readFileSync(join(bundle, 'pdfium/THIRD_PARTY_NOTICES'), 'utf8');
    for (const library of ['FreeType', 'libjpeg-turbo', 'zlib', 'OpenJPEG', 'Little CMS', 'libpng', 'Anti-Grain Geometry', 'Abseil']) expect(notices, library).toContain(library);
  });

  it('carries pdfjs’ standard fonts, CMaps and wasm decoders under pdfjs/', () => {
    expect(readdirSync(join(bundle, 'pdfjs/standard_fonts')).some((f) => f.endsWith('.pfb') || f.endsWith('.ttf'))).toBe(true);
    expect(readdirSync(join(bundle, 'pdfjs/cmaps')).some((f) => f.endsWith('.bcmap'))).toBe(true);
    expect(existsSync(join(bundle, 'pdfjs/wasm/openjpeg.wasm'))).toBe(true);
  });
});

describe('other bundles', () => {
  it('ship exactly the native modules and data files their WorkerSpec lists', () => {
    for (const spec of Object.values(WORKERS)) {
      const bundle = bundleOf(spec.entry);
      for (const name of ['sharp', '@napi-rs/canvas']) {
        expect(existsSync(join(bundle, 'node_modules', name)), `${spec.entry} ${name}`).toBe(spec.nativeModules.includes(name));
      }
      expect(existsSync(join(bundle, 'pdfjs')), `${spec.entry} pdfjs`).toBe(spec.assets.includes('pdfjs'));
      expect(existsSync(join(bundle, 'pdfium/pdfium.wasm')), `${spec.entry} pdfium`).toBe(spec.assets.includes('pdfium'));
    }
  });

  it('of route handlers contain no node_modules at all', () => {
    for (const entry of new Set(ROUTES.map(routeEntry))) expect(existsSync(join(bundleOf(entry), 'node_modules')), entry).toBe(false);
  });
});

describe('every bundle', () => {
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'proofline-bundle-run-'));
  });
  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it.each(ALL_ENTRIES)('%s loads as an ES module under Node and exports its handler', (entry) => {
    const dir = hostRunnable(bundleOf(entry), join(scratch, entry.replace(/[/.]/g, '_')));
    const script = `import(${JSON.stringify(pathToFileURL(join(dir, 'index.mjs')).href)}).then((m) => console.log(typeof m.handler))`;
    const out = execFileSync(process.execPath, ['--enable-source-maps', '-e', script], {
      cwd: dir,
      encoding: 'utf8',
      // Configuration the functions read at load time; nothing is called.
      env: {
        PATH: process.env.PATH ?? '',
        AWS_REGION: 'eu-west-1',
        TABLE_NAME: 'proofline',
        BUCKET_NAME: 'proofline-files',
        PDFJS_ASSETS_DIR: join(dir, 'pdfjs'),
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
    });
    expect(out.trim()).toBe('function');
  });
});
