/** web/build-console.ts: what the console's build serves, and the budget its first load keeps. */
import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { BUILD_OPTIONS, buildConsole, buildConsoleSync, consoleCacheControl, consoleSecurityHeaders } from '../../../web/build-console';

describe('the console build', () => {
  it('serves a page naming its hashed script and stylesheet, and nothing inline', async () => {
    const files = await buildConsole();
    const html = files.get('/')!.body.toString();
    const script = /<script type="module" src="(\/assets\/console-[A-Z0-9]+\.js)"><\/script>/.exec(html)?.[1];
    const styles = /<link rel="stylesheet" href="(\/assets\/styles-[A-Z0-9]+\.css)" \/>/.exec(html)?.[1];
    expect(files.get(script!)).toMatchObject({ contentType: 'text/javascript; charset=utf-8', immutable: true });
    expect(files.get(styles!)).toMatchObject({ contentType: 'text/css; charset=utf-8', immutable: true });
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    expect(files.get('/')!.immutable).toBe(false);
  });

  it('builds the very same files synchronously, for the CDK app’s console asset', async () => {
    const files = await buildConsole();
    const sync = buildConsoleSync();
    expect([...sync.keys()].sort()).toEqual([...files.keys()].sort());
    for (const [path, file] of files) expect(sync.get(path), path).toEqual(file);
  });

  it('lets hashed assets be cached for a year and has the page revalidated on every load', () => {
    expect(consoleCacheControl({ immutable: true })).toBe('public, max-age=31536000, immutable');
    expect(consoleCacheControl({ immutable: false })).toBe('no-cache');
  });

  it('bundles no package but Preact and nothing of the server but modules that import nothing (no zod, no Node)', async () => {
    // A value imported from a module that re-exports the step catalogue once pulled zod into the
    // console: 119 KB gzipped instead of 23 KB (lambdas/domain/vocabulary.ts says why CHANNELS lives there).
    const { metafile } = await build({ ...BUILD_OPTIONS, metafile: true });
    const inputs = Object.keys(metafile.inputs);
    const packages = new Set(inputs.filter((p) => p.includes('node_modules/')).map((p) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(p)![1]));
    expect([...packages]).toEqual(['preact']);
    const server = inputs.filter((p) => !p.startsWith('web/') && !p.includes('node_modules/')).sort();
    expect(server).toEqual(['lambdas/domain/vocabulary.ts', 'lambdas/engine/previews/proof-geometry.ts']);
  });

  it('keeps the first load under 150 KB of JavaScript, gzipped (issue 17)', async () => {
    const files = await buildConsole();
    const js = [...files].filter(([path]) => path.endsWith('.js')).reduce((n, [, f]) => n + gzipSync(f.body).length, 0);
    expect(js).toBeLessThan(150 * 1024);
  });

  it('allows scripts and styles from its own origin only, and images and uploads from storage', () => {
    const csp = consoleSecurityHeaders('http://127.0.0.1:4568')['content-security-policy'];
    expect(csp.split('; ')).toEqual(
      expect.arrayContaining(["default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob: http://127.0.0.1:4568", "connect-src 'self' http://127.0.0.1:4568", "frame-ancestors 'none'"]),
    );
    expect(csp).not.toContain('unsafe');
  });
});
