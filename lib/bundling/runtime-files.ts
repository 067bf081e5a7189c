/**
 * The files a function needs next to its bundle: linux-arm64 native modules,
 * pdfjs-dist's data files and PDFium's wasm with its licences. esbuild cannot
 * bundle them (a .node binary is loaded by path; pdfjs reads fonts, CMaps and
 * wasm from disk at run time; PDFium's wasm is read beside the bundle), so the
 * bundle marks the native modules external and an afterBundling command copies
 * both into the asset (copy-runtime-files.mjs next to this file, which also
 * refuses any binary that is not AArch64).
 *
 * The command is built from the hook's inputDir/outputDir, so it is right for
 * both local bundling (the repository and a staging directory) and Docker
 * bundling (/asset-input, /asset-output), although this app bundles locally.
 */
import { existsSync } from 'node:fs';
import { posix, win32 } from 'node:path';
import { repoPath } from '../paths';

/** Run-time data a library reads from disk; the values WorkerSpec.assets uses. */
export type RuntimeAsset = 'pdfjs' | 'pdfium';

export interface RuntimeFiles {
  /** Packages with native binaries, shipped as linux-arm64 builds in node_modules/. */
  nativeModules: readonly string[];
  assets: readonly RuntimeAsset[];
}

/** Where the pdfjs data files end up inside the deployed function. */
export const PDFJS_ASSETS_DIR_IN_LAMBDA = '/var/task/pdfjs';

/** Filled by bin/vendor-lambda-binaries.mjs at npm install time. */
export const VENDORED_ARM64_MODULES = 'node_modules/.proofline-lambda-arm64/node_modules';

const COPY_SCRIPT = 'lib/bundling/copy-runtime-files.mjs';

export const needsRuntimeFiles = (files: RuntimeFiles): boolean => files.nativeModules.length > 0 || files.assets.length > 0;

/**
 * Fails synthesis early, with the fix in the message, when a function needs
 * native modules that were never vendored (e.g. an install with
 * PROOFLINE_SKIP_LAMBDA_BINARIES=1). Only called when the stack is bundled.
 */
export function assertVendoredModules(nativeModules: readonly string[]): void {
  const missing = nativeModules.filter((name) => !existsSync(repoPath(`${VENDORED_ARM64_MODULES}/${name}/package.json`)));
  if (missing.length > 0) {
    throw new Error(
      `The linux-arm64 builds of ${missing.join(', ')} are not in ${VENDORED_ARM64_MODULES}. ` +
        'Run `node bin/vendor-lambda-binaries.mjs` (npm install runs it as postinstall) and synthesize again.',
    );
  }
}

/** True when the hook is rendering the command for a Docker container. */
const isContainerPath = (dir: string): boolean => dir.startsWith('/asset-');

/** Quotes one argument for the shell CDK runs the command in (bash, or cmd on Windows). */
function quote(arg: string, windows: boolean): string {
  if (windows) return `"${arg.replace(/"/g, '""')}"`;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The afterBundling commands that add `files` to the bundle in outputDir. */
export function runtimeFilesCommands(inputDir: string, outputDir: string, files: RuntimeFiles): string[] {
  if (!needsRuntimeFiles(files)) return [];
  const windows = process.platform === 'win32' && !isContainerPath(inputDir);
  const join = windows ? win32.join : posix.join;
  const args = [
    join(inputDir, COPY_SCRIPT),
    '--project', inputDir,
    '--out', outputDir,
    ...files.nativeModules.flatMap((name) => ['--native', name]),
    ...(files.assets.includes('pdfjs') ? ['--pdfjs'] : []),
    ...(files.assets.includes('pdfium') ? ['--pdfium'] : []),
  ];
  return [['node', ...args.map((a) => quote(a, windows))].join(' ')];
}
