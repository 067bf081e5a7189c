/**
 * The console's files as `cdk synth` stages them (lib/bundling/console-asset.ts, deployed by
 * lib/constructs/console-site.ts): the asset the deployments unzip into the console bucket holds
 * the page and the hashed files it names, exactly as the console build makes them. A stack with
 * the console site alone is bundled, so this needs no Lambda bundling.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ConsoleSite } from '../../lib/constructs/console-site';
import { buildConsole, type ConsoleFiles } from '../../web/build-console';
import { filesUnder } from './support/bundle-files';
import { CDK_CONTEXT, TEST_ENV } from './support/synth';
import { resourcesOfType } from './support/template-queries';

let outdir: string;
let assetDir: string;
let built: ConsoleFiles;

beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'proofline-console-asset-'));
  const app = new App({ outdir, context: CDK_CONTEXT });
  const stack = new Stack(app, 'ConsoleOnly', { env: TEST_ENV });
  new ConsoleSite(stack, 'Console');
  const template = Template.fromStack(stack);
  app.synth();
  const keys = new Set(resourcesOfType(template, 'Custom::CDKBucketDeployment').flatMap(([, d]) => d.Properties.SourceObjectKeys as string[]));
  expect(keys.size).toBe(1);
  assetDir = join(outdir, `asset.${[...keys][0]!.replace(/\.zip$/, '')}`);
  built = await buildConsole();
});

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

describe('the console asset', () => {
  it('holds index.html, naming a hashed script and stylesheet that are beside it', () => {
    const html = readFileSync(join(assetDir, 'index.html'), 'utf8');
    const script = /<script type="module" src="\/(assets\/console-[A-Z0-9]+\.js)"><\/script>/.exec(html)?.[1];
    const styles = /<link rel="stylesheet" href="\/(assets\/styles-[A-Z0-9]+\.css)" \/>/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(styles).toBeDefined();
    expect(existsSync(join(assetDir, script!))).toBe(true);
    expect(existsSync(join(assetDir, styles!))).toBe(true);
  });

  it('is the console build, file for file, and nothing else', () => {
    const staged = [...filesUnder(assetDir)].map((f) => relative(assetDir, f).split('\\').join('/')).sort();
    const expected = [...built.keys()].map((path) => (path === '/' ? 'index.html' : path.slice(1))).sort();
    expect(staged).toEqual(expected);
    for (const [path, file] of built) {
      expect(readFileSync(join(assetDir, path === '/' ? 'index.html' : path.slice(1))).equals(file.body), path).toBe(true);
    }
  });
});
