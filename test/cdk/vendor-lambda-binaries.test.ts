import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoPath } from '../../lib/paths';

/**
 * bin/vendor-lambda-binaries.mjs, run as npm runs it (postinstall), in a
 * scratch copy of the repository so the real node_modules is never touched.
 * The registry, when one is needed, is a closed port on 127.0.0.1.
 */
const LOCK = JSON.parse(readFileSync(repoPath('package-lock.json'), 'utf8'));
const VENDORED = ['sharp', '@napi-rs/canvas', '@img/sharp-linux-arm64', '@img/sharp-libvips-linux-arm64', '@napi-rs/canvas-linux-arm64-gnu', 'detect-libc', 'semver', '@img/colour'];
const locked = (name: string): string => LOCK.packages[`node_modules/${name}`].version;

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'proofline-vendor-'));
  mkdirSync(join(root, 'bin'));
  cpSync(repoPath('bin/vendor-lambda-binaries.mjs'), join(root, 'bin/vendor-lambda-binaries.mjs'));
  writeFileSync(join(root, 'package-lock.json'), JSON.stringify(LOCK));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const vendorDir = (): string => join(root, 'node_modules/.proofline-lambda-arm64');

/** A vendor directory as a finished run leaves it: package.json of each package plus the marker. */
function fakeVendored(versions: Record<string, string>): void {
  for (const [name, version] of Object.entries(versions)) {
    const dir = join(vendorDir(), 'node_modules', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version }));
  }
  const sorted = Object.fromEntries(Object.entries(versions).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(join(vendorDir(), '.proofline-vendor.json'), JSON.stringify({ versions: sorted }));
}

/** A PATH with node and nothing else: any attempt to run npm fails. */
function pathWithoutNpm(): string {
  const dir = join(root, 'only-node');
  mkdirSync(dir);
  symlinkSync(process.execPath, join(dir, 'node'));
  return dir;
}

async function closedLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function run(env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(root, 'bin/vendor-lambda-binaries.mjs')], {
    cwd: root,
    env: { HOME: root, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('vendor-lambda-binaries (postinstall)', () => {
  it('does nothing, and runs no npm, when the locked linux-arm64 packages are already there', () => {
    fakeVendored(Object.fromEntries(VENDORED.map((n) => [n, locked(n)])));
    const result = run({ PATH: pathWithoutNpm() });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('fetches again when a vendored version no longer matches the lock, and says how to retry when it cannot', async () => {
    fakeVendored({ ...Object.fromEntries(VENDORED.map((n) => [n, locked(n)])), sharp: '0.0.1' });
    const port = await closedLoopbackPort();
    const cache = join(root, 'empty-npm-cache');
    mkdirSync(cache);
    const result = run({
      PATH: dirname(process.execPath) + ':' + (process.env.PATH ?? ''),
      npm_config_registry: `http://127.0.0.1:${port}/`,
      npm_config_cache: cache,
      npm_config_fetch_retries: '0',
      npm_config_update_notifier: 'false',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`sharp@${locked('sharp')}`);
    expect(result.stderr).toContain('run `node bin/vendor-lambda-binaries.mjs` again');
    // The failed attempt leaves no staging directory behind, and the old copy untouched.
    expect(readdirSync(join(root, 'node_modules')).filter((d) => d.includes('.tmp-'))).toEqual([]);
    expect(existsSync(join(vendorDir(), 'node_modules/sharp/package.json'))).toBe(true);
  });

  it('is skipped, with a warning, when PROOFLINE_SKIP_LAMBDA_BINARIES=1', () => {
    const result = run({ PATH: pathWithoutNpm(), PROOFLINE_SKIP_LAMBDA_BINARIES: '1' });
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/skipped/);
    expect(existsSync(vendorDir())).toBe(false);
  });

  it('refuses, naming the package, when the lock does not pin a native module', () => {
    const lock = structuredClone(LOCK);
    delete lock.packages['node_modules/@napi-rs/canvas'];
    writeFileSync(join(root, 'package-lock.json'), JSON.stringify(lock));
    const result = run({ PATH: pathWithoutNpm() });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('does not pin @napi-rs/canvas');
  });
});
