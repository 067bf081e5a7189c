/**
 * A bench child module bundled the way the CDK bundles the Lambdas
 * (lib/constructs/proofline-nodejs-function.ts: esbuild, ESM, minified,
 * source maps on, the same banner, native modules left outside), to be run
 * with plain node and the Lambda's --enable-source-maps. The engines are then
 * timed as they run in AWS, not under tsx, whose loader and helpers (every
 * named closure re-named at creation, keepNames) are no part of a deployment.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { ESM_REQUIRE_BANNER } from '../../../lib/constructs/proofline-nodejs-function';

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** Inside the repository, so the bundle's external native modules resolve from its node_modules. */
const BUILD_PARENT = path.join(ROOT, 'node_modules', '.cache');
const NATIVE_MODULES = ['sharp', '@napi-rs/canvas'];

/** The node flags the Lambdas run with (NODE_OPTIONS there). */
export const LAMBDA_NODE_ARGS = ['--enable-source-maps'];

export interface LambdaBundle {
  /** The bundled module, to run with `node ...LAMBDA_NODE_ARGS outfile`. */
  outfile: string;
  remove(): Promise<void>;
}

export async function bundleAsLambda(entry: string, name: string): Promise<LambdaBundle> {
  await mkdir(BUILD_PARENT, { recursive: true });
  const dir = await mkdtemp(path.join(BUILD_PARENT, `proofline-${name}-`));
  const outfile = path.join(dir, 'index.mjs');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    mainFields: ['module', 'main'],
    banner: { js: ESM_REQUIRE_BANNER },
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    external: NATIVE_MODULES,
    logLevel: 'error',
  });
  return { outfile, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The environment of a bundled child: the bench's own, without its tsx loader. */
export function lambdaChildEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.NODE_OPTIONS;
  return env;
}
