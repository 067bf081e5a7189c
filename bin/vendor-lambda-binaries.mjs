#!/usr/bin/env node
/**
 * Fetches the linux-arm64 builds of the native modules our Lambdas load (sharp,
 * @napi-rs/canvas) into node_modules/.proofline-lambda-arm64/, at the exact
 * versions of the root package-lock.json.
 *
 * Why: the functions run on Graviton (linux-arm64) but are bundled on developer
 * and CI machines (usually x64, no Docker), where npm installs only the host's
 * binaries. `cdk synth` copies these packages into the bundles of the functions
 * whose WorkerSpec lists native modules (lib/bundling/native-modules.ts), and must
 * work offline, so the download happens here, at `npm install` time (postinstall).
 *
 * Fast path: when the directory already holds the locked versions, it exits
 * without touching the network. Set PROOFLINE_SKIP_LAMBDA_BINARIES=1 to skip it
 * (e.g. an install that never synthesizes); `cdk synth` then fails with a message
 * that says to run this script.
 *
 * Plain JavaScript with no dependencies: it runs before anything else is usable.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const lockPath = join(repoRoot, 'package-lock.json');
const VENDOR_DIR = join(repoRoot, 'node_modules', '.proofline-lambda-arm64');
const MARKER = '.proofline-vendor.json';

/** The modules to vendor; the platform packages are what proves the arm64 build arrived. */
const NATIVE_MODULES = {
  sharp: ['@img/sharp-linux-arm64', '@img/sharp-libvips-linux-arm64'],
  '@napi-rs/canvas': ['@napi-rs/canvas-linux-arm64-gnu'],
};

function fail(message) {
  console.error(`\n[vendor-lambda-binaries] ${message}\n`);
  process.exit(1);
}

/**
 * Every package to vendor at its locked version: the native modules, their
 * linux-arm64 platform packages and their JavaScript dependencies (sharp needs
 * detect-libc, semver, @img/colour), so the bundle runs exactly what was tested.
 */
function lockedVersions() {
  if (!existsSync(lockPath)) fail(`no package-lock.json at ${lockPath}`);
  const packages = JSON.parse(readFileSync(lockPath, 'utf8')).packages ?? {};
  // npm may nest a dependency under its dependant when versions conflict.
  const entry = (name, parentPath) =>
    (parentPath && packages[`${parentPath}/node_modules/${name}`] ? `${parentPath}/node_modules/${name}` : undefined) ??
    (packages[`node_modules/${name}`] ? `node_modules/${name}` : undefined);
  const versions = {};
  const visit = (name, parentPath) => {
    const path = entry(name, parentPath);
    if (!path) fail(`package-lock.json does not pin ${name}; run npm install in the repository first`);
    if (versions[name] !== undefined) return;
    versions[name] = packages[path].version;
    for (const dep of Object.keys(packages[path].dependencies ?? {})) visit(dep, path);
  };
  for (const [name, platformPackages] of Object.entries(NATIVE_MODULES)) {
    visit(name);
    for (const p of platformPackages) visit(p);
  }
  return Object.fromEntries(Object.entries(versions).sort(([a], [b]) => a.localeCompare(b)));
}

function installedVersion(dir, name) {
  try {
    return JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

function isComplete(dir, versions) {
  try {
    const marker = JSON.parse(readFileSync(join(dir, MARKER), 'utf8'));
    if (JSON.stringify(marker.versions) !== JSON.stringify(versions)) return false;
  } catch {
    return false;
  }
  return Object.entries(versions).every(([name, version]) => installedVersion(dir, name) === version);
}

/**
 * npm passes its own settings to lifecycle scripts as npm_config_* variables;
 * those about where and for which platform to install (a global install, the
 * host's cpu, omitted optional deps) would redirect the nested install, so they
 * are dropped. Registry, proxy and cache settings stay.
 */
function nestedInstallEnv() {
  const drop = /^npm_config_(global|location|prefix|cpu|os|libc|omit|include|optional|production|only|save.*|package_lock.*|workspaces?|include_workspace_root|ignore_scripts|dry_run|audit|fund)$/i;
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !drop.test(k)));
}

function install(versions) {
  const staging = `${VENDOR_DIR}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  // Platform packages arrive as the optional dependencies of their module (npm
  // applies --cpu/--os/--libc only there; named directly they fail EBADPLATFORM).
  const platformPackages = new Set(Object.values(NATIVE_MODULES).flat());
  const direct = Object.fromEntries(Object.entries(versions).filter(([name]) => !platformPackages.has(name)));
  const specs = Object.entries(direct).map(([name, version]) => `${name}@${version}`);
  writeFileSync(
    join(staging, 'package.json'),
    JSON.stringify({ name: 'proofline-lambda-arm64', private: true, dependencies: direct }, null, 2),
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = [
    'install', '--cpu=arm64', '--os=linux', '--libc=glibc', '--no-save', '--no-package-lock',
    '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...specs,
  ];
  const result = spawnSync(npm, args, { cwd: staging, env: nestedInstallEnv(), stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.error || result.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    fail(
      `could not fetch the linux-arm64 packages ${specs.join(', ')} (npm ${args.join(' ')} ` +
        `${result.error ? `failed: ${result.error.message}` : `exited ${result.status}`}).\n` +
        'The Lambda bundles need them; check network access to the npm registry and run `node bin/vendor-lambda-binaries.mjs` again.\n' +
        'To install without them (no `cdk synth` on this machine), set PROOFLINE_SKIP_LAMBDA_BINARIES=1.',
    );
  }
  const missing = Object.entries(versions)
    .filter(([name, version]) => installedVersion(staging, name) !== version)
    .map(([name, version]) => `${name}@${version}`);
  if (missing.length > 0) {
    rmSync(staging, { recursive: true, force: true });
    fail(`npm finished but did not install ${missing.join(', ')}; is this npm too old to honour --cpu/--os/--libc (needs npm >= 10.4)?`);
  }
  writeFileSync(join(staging, MARKER), JSON.stringify({ versions, platform: 'linux-arm64-glibc' }, null, 2));
  // Swap in one rename so an interrupted run never leaves a half-filled directory behind.
  rmSync(VENDOR_DIR, { recursive: true, force: true });
  renameSync(staging, VENDOR_DIR);
}

function main() {
  if (process.env.PROOFLINE_SKIP_LAMBDA_BINARIES === '1') {
    console.warn('[vendor-lambda-binaries] skipped (PROOFLINE_SKIP_LAMBDA_BINARIES=1): `cdk synth` will not work until it runs.');
    return;
  }
  const versions = lockedVersions();
  if (isComplete(VENDOR_DIR, versions)) return;
  console.log(`[vendor-lambda-binaries] fetching the linux-arm64 builds of ${Object.keys(NATIVE_MODULES).join(', ')}`);
  install(versions);
  console.log(`[vendor-lambda-binaries] ready in ${VENDOR_DIR}`);
}

main();
