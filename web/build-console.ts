/**
 * Builds the console (web/src) and the customer's proof page (web/src/proof, served at /proof)
 * into their files: the JavaScript and CSS bundles under hashed names (so they can be cached for
 * ever), and the two pages naming them. In memory: `npm start` builds at
 * start (esbuild takes a fraction of a second) and serves from the map; nothing is written to the
 * repository and no build step precedes `npm start`. The CDK app builds the same files into the
 * console's asset at synthesis (writeConsoleFiles, called by lib/bundling/console-asset.ts).
 *
 * All the console's code and styles are ours and bundled: nothing is fetched from a CDN at run
 * time, and the page has no inline script or style, so its Content-Security-Policy can forbid both
 * (consoleSecurityHeaders).
 */
import { build, buildSync, type BuildOptions, type OutputFile } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
// Where share links point; the page is served there.
import { PROOF_PAGE_PATH } from '../lambdas/domain/use-cases/share-job';

const WEB_ROOT = dirname(fileURLToPath(import.meta.url));
const OUT = join(WEB_ROOT, 'out');
/** The pages' templates: each names its script and stylesheet as {{script}} and {{styles}}. */
const TEMPLATES = { console: join(WEB_ROOT, 'index.html'), proof: join(WEB_ROOT, 'proof.html') };
type Templates = Record<keyof typeof TEMPLATES, string>;


export interface ConsoleFile {
  body: Buffer;
  contentType: string;
  /** A hashed asset: its name changes with its content. */
  immutable: boolean;
}

/** The console's files by URL path (`/`, `/assets/console-<hash>.js`, …). */
export type ConsoleFiles = Map<string, ConsoleFile>;

/** The file the page at `/` is stored as where files have names (a directory, a bucket). */
export const CONSOLE_INDEX_FILE = 'index.html';

/**
 * The pages as stored where files have names: the console's index and the proof page, which keeps
 * its extensionless name (the URL asks for `/proof`), so it must be given its type where stored.
 */
export const CONSOLE_PAGE_FILES = [CONSOLE_INDEX_FILE, PROOF_PAGE_PATH.slice(1)] as const;

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/** The build of both pages (exported for the test that checks what the bundles take in). */
export const BUILD_OPTIONS = {
  entryPoints: {
    console: join(WEB_ROOT, 'src/main.tsx'),
    styles: join(WEB_ROOT, 'src/styles.css'),
    // The proof page for the shop's customer: its own small bundle, none of the console's code.
    proof: join(WEB_ROOT, 'src/proof/main.tsx'),
    'proof-styles': join(WEB_ROOT, 'src/proof/proof.css'),
  },
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome120', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  entryNames: 'assets/[name]-[hash]',
  outdir: OUT,
  write: false,
  legalComments: 'none',
  logLevel: 'silent',
} satisfies BuildOptions;

export async function buildConsole(): Promise<ConsoleFiles> {
  const [result, consoleTemplate, proofTemplate] = await Promise.all([build(BUILD_OPTIONS), readFile(TEMPLATES.console, 'utf8'), readFile(TEMPLATES.proof, 'utf8')]);
  return consoleFiles(result.outputFiles, { console: consoleTemplate, proof: proofTemplate });
}

/**
 * The same build, synchronously: for the CDK app, whose asset bundling (lib/bundling/console-asset.ts)
 * runs inside synthesis and cannot wait for a promise.
 */
export function buildConsoleSync(): ConsoleFiles {
  return consoleFiles(buildSync(BUILD_OPTIONS).outputFiles, { console: readFileSync(TEMPLATES.console, 'utf8'), proof: readFileSync(TEMPLATES.proof, 'utf8') });
}

function consoleFiles(outputFiles: OutputFile[], templates: Templates): ConsoleFiles {
  const files: ConsoleFiles = new Map();
  const names: Record<string, string> = {};
  for (const f of outputFiles) {
    const path = `/${relative(OUT, f.path).split('\\').join('/')}`;
    const ext = path.slice(path.lastIndexOf('.'));
    files.set(path, { body: Buffer.from(f.contents), contentType: TYPES[ext] ?? 'application/octet-stream', immutable: true });
    if (/^\/assets\/console-[^/]+\.js$/.test(path)) names.script = path;
    if (/^\/assets\/styles-[^/]+\.css$/.test(path)) names.styles = path;
    if (/^\/assets\/proof-[^/]+\.js$/.test(path)) names.proofScript = path;
    if (/^\/assets\/proof-styles-[^/]+\.css$/.test(path)) names.proofStyles = path;
  }
  if (!names.script || !names.styles) throw new Error('The console build produced no script or stylesheet');
  if (!names.proofScript || !names.proofStyles) throw new Error('The console build produced no proof page script or stylesheet');
  files.set('/', page(templates.console, names.script, names.styles));
  files.set(PROOF_PAGE_PATH, page(templates.proof, names.proofScript, names.proofStyles));
  return files;
}

/** An HTML page of the build: its template with its hashed script and stylesheet named. */
function page(template: string, script: string, styles: string): ConsoleFile {
  const html = template.replace('{{script}}', script).replace('{{styles}}', styles);
  return { body: Buffer.from(html), contentType: 'text/html; charset=utf-8', immutable: false };
}

/**
 * Writes the files into `dir` under their URL paths, the page at `/` as CONSOLE_INDEX_FILE; the
 * other pages keep their extensionless names (`proof`), as the URL asks for them.
 */
export function writeConsoleFiles(files: ConsoleFiles, dir: string): void {
  for (const [path, file] of files) {
    const target = join(dir, path === '/' ? CONSOLE_INDEX_FILE : path.slice(1));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.body);
  }
}

/** How long browsers (and the CDN) may keep a file: hashed assets for good, the pages never without asking again. */
export const consoleCacheControl = (file: Pick<ConsoleFile, 'immutable'>): string =>
  file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache';

/**
 * The headers every console file is served with. `storageOrigin` is where presigned download and
 * upload URLs point (the storage gateway locally, the bucket in the cloud): images and uploads
 * from there are allowed, nothing else from anywhere but the console's own origin.
 */
export function consoleSecurityHeaders(storageOrigin: string): Record<string, string> {
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob: ${storageOrigin}`,
    `connect-src 'self' ${storageOrigin}`,
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  };
}
