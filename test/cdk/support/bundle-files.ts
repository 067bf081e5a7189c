/**
 * Reading Lambda assets in a synthesized cloud assembly: where a function's
 * bundle directory is, what kind of binary a file is, and a copy of a bundle
 * that runs on this machine.
 */
import { closeSync, cpSync, existsSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { repoPath } from '../../../lib/paths';
import { resource } from './template-queries';

/** ELF e_machine of AArch64 (offset 18 of the ELF header). */
export const EM_AARCH64 = 0xb7;

/** The staged asset directory of a function: cdk.out/asset.<hash>, named by its S3 key. */
export function assetDirOf(outdir: string, template: Template, functionId: string): string {
  const key = resource(template, functionId).Properties.Code.S3Key as string;
  const dir = join(outdir, `asset.${key.replace(/\.zip$/, '')}`);
  if (!existsSync(dir)) throw new Error(`asset directory ${dir} of ${functionId} does not exist`);
  return dir;
}

export function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

/** `{ elf, machine }` of a file: whether it starts with the ELF magic, and its e_machine. */
export function elfHeader(path: string): { elf: boolean; machine: number | undefined } {
  const header = Buffer.alloc(20);
  const fd = openSync(path, 'r');
  try {
    const read = readSync(fd, header, 0, 20, 0);
    if (read < 20 || header.readUInt32BE(0) !== 0x7f454c46) return { elf: false, machine: undefined };
    return { elf: true, machine: header.readUInt16LE(18) };
  } finally {
    closeSync(fd);
  }
}

/** Native binaries shipped in a bundle: .node addons and shared libraries. */
export const nativeBinaries = (dir: string): string[] => [...filesUnder(dir)].filter((f) => /\.node$|\.so(\.\d+)*$/.test(f));

/**
 * A bundle that can run on this machine: as shipped when it has no native
 * modules, else a copy in `into` with the linux-arm64 platform packages swapped
 * for the ones npm installed for the host (the bundle, the native modules'
 * JavaScript and the pdfjs files stay as shipped). Both live outside the
 * repository, so nothing resolves from the repository's node_modules.
 */
export function hostRunnable(bundle: string, into: string): string {
  if (!existsSync(join(bundle, 'node_modules'))) return bundle;
  cpSync(bundle, into, { recursive: true });
  const modules = join(into, 'node_modules');
  const host = `${process.platform}-${process.arch}`;
  // scope of the platform packages → the module that loads them
  const owners = { '@img': 'sharp', '@napi-rs': '@napi-rs/canvas' } as const;
  for (const [scope, owner] of Object.entries(owners)) {
    if (!existsSync(join(modules, owner))) continue;
    for (const name of readdirSync(join(modules, scope)).filter((n) => n.includes('linux-arm64'))) {
      rmSync(join(modules, scope, name), { recursive: true });
    }
    for (const name of readdirSync(repoPath(`node_modules/${scope}`)).filter((n) => n.includes(host))) {
      cpSync(repoPath(`node_modules/${scope}/${name}`), join(modules, scope, name), { recursive: true });
    }
  }
  return into;
}
