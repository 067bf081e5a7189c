/**
 * web/src/styles.css as esbuild reads it when it builds the console (web/build-console.ts, which
 * builds quietly). A stylesheet esbuild has to repair is one whose rules land where they were not
 * written: an unclosed `@media (max-width: 70rem) {` once put every rule after it, the whole New
 * job page's and the progress bars', inside that query, so on a desktop screen none applied.
 */
import { describe, expect, it } from 'vitest';
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';

const STYLES = fileURLToPath(new URL('../../../web/src/styles.css', import.meta.url));

describe('the console’s stylesheet', () => {
  it('builds without a warning, every block closed where it was written', () => {
    const result = buildSync({ entryPoints: [STYLES], bundle: true, write: false, logLevel: 'silent', outdir: 'out' });
    expect(result.warnings.map((w) => `${w.text} (line ${w.location?.line})`)).toEqual([]);
  });

  it('keeps the New job page’s rules outside any media query', () => {
    const result = buildSync({ entryPoints: [STYLES], bundle: true, write: false, logLevel: 'silent', outdir: 'out', minify: true });
    const css = result.outputFiles[0]!.text;
    // Top level: the rule is not nested inside another block's braces.
    const at = css.indexOf('.file-input{');
    expect(at).toBeGreaterThan(-1);
    let depth = 0;
    for (const ch of css.slice(0, at)) depth += ch === '{' ? 1 : ch === '}' ? -1 : 0;
    expect(depth).toBe(0);
  });
});
