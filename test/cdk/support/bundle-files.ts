/**
 * Reading Lambda assets in a synthesized cloud assembly: where a function's
 * bundle directory is, and what kind of binary a file is.
 */
import { closeSync, existsSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
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
