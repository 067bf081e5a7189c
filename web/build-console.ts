/**
 * Builds the console (web/src) and the customer's proof page (web/src/proof, served at /proof) into their files: the JavaScript and CSS bundles under hashed names
 * (so they can be cached for ever), and index.html naming them. In memory: `npm start` builds at
 * start (esbuild takes a fraction of a second) and serves from the map; nothing is written to the
 * repository and no build step precedes `npm start`.
 *
 * All the console's code and styles are ours and bundled: nothing is fetched from a CDN at run
 * time, and the page has no inline script or style, so its Content-Security-Policy can forbid both
 * (consoleSecurityHeaders).
 */
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB_ROOT = dirname(fileURLToPath(import.meta.url));

export interface ConsoleFile {
  body: Buffer;
  contentType: string;
  /** A hashed asset: its name changes with its content. */
  immutable: boolean;
}

/** The console's files by URL path (`/`, `/assets/console-<hash>.js`, …). */
export type ConsoleFiles = Map<string, ConsoleFile>;

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

export async function buildConsole(): Promise<ConsoleFiles> {
  const out = join(WEB_ROOT, 'out');
  const result = await build({
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
    outdir: out,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const files: ConsoleFiles = new Map();
  const names: Record<string, string> = {};
  for (const f of result.outputFiles) {
    const path = `/${relative(out, f.path).split('\\').join('/')}`;
    const ext = path.slice(path.lastIndexOf('.'));
    files.set(path, { body: Buffer.from(f.contents), contentType: TYPES[ext] ?? 'application/octet-stream', immutable: true });
    if (/^\/assets\/console-[^/]+\.js$/.test(path)) names.script = path;
    if (/^\/assets\/styles-[^/]+\.css$/.test(path)) names.styles = path;
    if (/^\/assets\/proof-[^/]+\.js$/.test(path)) names.proofScript = path;
    if (/^\/assets\/proof-styles-[^/]+\.css$/.test(path)) names.proofStyles = path;
  }
  if (!names.script || !names.styles) throw new Error('The console build produced no script or stylesheet');
  if (!names.proofScript || !names.proofStyles) throw new Error('The console build produced no proof page script or stylesheet');
  files.set('/', await page('index.html', names.script, names.styles));
  files.set('/proof', await page('proof.html', names.proofScript, names.proofStyles));
  return files;
}

/** An HTML page of the build: its template with its hashed script and stylesheet named. */
async function page(template: string, script: string, styles: string): Promise<ConsoleFile> {
  const html = (await readFile(join(WEB_ROOT, template), 'utf8')).replace('{{script}}', script).replace('{{styles}}', styles);
  return { body: Buffer.from(html), contentType: 'text/html; charset=utf-8', immutable: false };
}

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
