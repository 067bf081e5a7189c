#!/usr/bin/env node
/**
 * Runs after esbuild, inside NodejsFunction's afterBundling hook, to add what a
 * bundle cannot contain:
 *
 *   --native <name>  the linux-arm64 build of a native module (sharp,
 *                    @napi-rs/canvas) with every package it loads at run time,
 *                    from node_modules/.proofline-lambda-arm64 (filled at npm
 *                    install time by bin/vendor-lambda-binaries.mjs), into
 *                    <out>/node_modules, where Node resolves the bundle's
 *                    external imports;
 *   --pdfjs          pdfjs-dist's fonts, CMaps, wasm decoders and ICC profiles
 *                    into <out>/pdfjs (the function reads them via PDFJS_ASSETS_DIR);
 *   --pdfium         @embedpdf/pdfium's pdfium.wasm into <out>/pdfium (the
 *                    render threads read it beside the bundle, previews/pdfium.ts)
 *                    with the licences it ships under: the wrapper's
 *                    (LICENSE.embedpdf), PDFium's (LICENSE.pdfium), and the
 *                    notices of the libraries PDFium compiles in
 *                    (THIRD_PARTY_NOTICES, from licenses/pdfium/).
 *
 * It then checks that every .node and .so file it shipped is an AArch64 ELF
 * object, so a host (x64) binary can never reach a deployed function: that is
 * the failure that passes every local test and breaks only in the cloud.
 *
 * Usage: node copy-runtime-files.mjs --project <repo root> --out <bundle dir> [--native <name>]... [--pdfjs] [--pdfium]
 * Plain JavaScript and Node built-ins only: it runs as a separate process.
 */
import { cpSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, closeSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

const EM_AARCH64 = 0xb7;
const PDFJS_ASSET_DIRS = ['standard_fonts', 'cmaps', 'wasm', 'iccs'];

function fail(message) {
  console.error(`[copy-runtime-files] ${message}`);
  process.exit(1);
}

function parseArgs(argv) {
  const args = { project: undefined, out: undefined, native: [], pdfjs: false, pdfium: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--project') args.project = argv[++i];
    else if (flag === '--out') args.out = argv[++i];
    else if (flag === '--native') args.native.push(argv[++i]);
    else if (flag === '--pdfjs') args.pdfjs = true;
    else if (flag === '--pdfium') args.pdfium = true;
    else fail(`unknown argument ${flag}`);
  }
  if (!args.project || !args.out) fail('--project and --out are required');
  return args;
}

function readPackageJson(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

/**
 * The packages a module needs at run time: its dependencies (all required) and
 * those of its optionalDependencies that npm installed for linux-arm64 (the
 * platform packages holding the binaries; the other platforms' are absent).
 */
function runtimeClosure(vendorModules, rootName) {
  const found = new Map();
  const visit = (name, requiredBy, optional) => {
    if (found.has(name)) return;
    const dir = join(vendorModules, name);
    if (!existsSync(join(dir, 'package.json'))) {
      if (optional) return;
      fail(`${name}${requiredBy ? ` (needed by ${requiredBy})` : ''} is missing from ${vendorModules}; run \`node bin/vendor-lambda-binaries.mjs\``);
    }
    found.set(name, dir);
    const pkg = readPackageJson(dir);
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, name, false);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) visit(dep, name, true);
  };
  visit(rootName, undefined, false);
  return found;
}

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

/** ELF header: magic at 0, e_machine (little-endian u16) at offset 18. */
function elfMachine(path) {
  const header = Buffer.alloc(20);
  const fd = openSync(path, 'r');
  try {
    if (readSync(fd, header, 0, 20, 0) < 20) return undefined;
  } finally {
    closeSync(fd);
  }
  if (header.readUInt32BE(0) !== 0x7f454c46) return undefined;
  return header.readUInt16LE(18);
}

function assertArm64Binaries(dir) {
  let count = 0;
  for (const file of filesUnder(dir)) {
    if (!/\.node$|\.so(\.\d+)*$/.test(file)) continue;
    const machine = elfMachine(file);
    if (machine !== EM_AARCH64) {
      fail(`${file} is not a linux-arm64 binary (ELF e_machine ${machine === undefined ? 'none' : `0x${machine.toString(16)}`}); the vendored packages are wrong, delete node_modules/.proofline-lambda-arm64 and run \`node bin/vendor-lambda-binaries.mjs\``);
    }
    count++;
  }
  return count;
}

function copyNativeModule(project, out, name) {
  const vendorModules = join(project, 'node_modules', '.proofline-lambda-arm64', 'node_modules');
  if (!existsSync(vendorModules)) {
    fail(`no linux-arm64 packages in ${vendorModules}; run \`node bin/vendor-lambda-binaries.mjs\` (npm install runs it as postinstall)`);
  }
  const closure = runtimeClosure(vendorModules, name);
  let binaries = 0;
  for (const [pkg, from] of closure) {
    const to = join(out, 'node_modules', pkg);
    mkdirSync(dirname(to), { recursive: true });
    cpSync(from, to, { recursive: true, dereference: true });
    binaries += assertArm64Binaries(to);
  }
  if (binaries === 0) fail(`${name}: no linux-arm64 binary among ${[...closure.keys()].join(', ')}`);
}

function copyPdfjsAssets(project, out) {
  const pdfjs = join(project, 'node_modules', 'pdfjs-dist');
  for (const dir of PDFJS_ASSET_DIRS) {
    const from = join(pdfjs, dir);
    if (!existsSync(from) || !statSync(from).isDirectory()) fail(`pdfjs-dist has no ${dir}/ at ${from}`);
    cpSync(from, join(out, 'pdfjs', dir), { recursive: true, dereference: true });
  }
}

/** pdfium.wasm and its licences; each must be there, or the bundle is refused. */
function copyPdfium(project, out) {
  const pkg = join(project, 'node_modules', '@embedpdf', 'pdfium');
  const files = [
    [join(pkg, 'dist', 'pdfium.wasm'), 'pdfium.wasm'],
    [join(pkg, 'LICENSE'), 'LICENSE.embedpdf'],
    [join(pkg, 'LICENSE.pdfium'), 'LICENSE.pdfium'],
    [join(project, 'licenses', 'pdfium', 'THIRD_PARTY_NOTICES'), 'THIRD_PARTY_NOTICES'],
  ];
  mkdirSync(join(out, 'pdfium'), { recursive: true });
  for (const [from, name] of files) {
    if (!existsSync(from)) fail(`${from} is missing; PDFium cannot ship without it`);
    cpSync(from, join(out, 'pdfium', name), { dereference: true });
  }
}

const args = parseArgs(process.argv.slice(2));
for (const name of args.native) copyNativeModule(args.project, args.out, name);
if (args.pdfjs) copyPdfjsAssets(args.project, args.out);
if (args.pdfium) copyPdfium(args.project, args.out);
