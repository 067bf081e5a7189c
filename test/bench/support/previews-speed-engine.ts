/**
 * Our side of the previews speed bench, run the way the previews Lambda runs
 * it: the engine bundled by esbuild with the settings the CDK bundling uses
 * (ESM, minified, source maps on, native modules external, the same banner;
 * lib/constructs/proofline-nodejs-function.ts) and started with plain node and
 * --enable-source-maps, in a child process of its own, whose render threads
 * start from that bundle (render-pool.ts). Its peak RSS is the engine's.
 *
 * Why not in the bench's own process: the bench runs under tsx, which loads
 * every module through its loader (pdfjs alone then takes about 400 MB more
 * per thread than under plain node), and builds the test PDF with pdf-lib;
 * neither is the engine, and both landed in the "our peak RSS" figure.
 *
 * The child is previews-speed-child.ts; requests and answers go over IPC.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Renderer } from '../../../lambdas/engine/previews/page-thread-protocol';
import { bundleAsLambda, LAMBDA_NODE_ARGS, lambdaChildEnv, type LambdaBundle } from './lambda-bundle';
import type { SpeedAnswer, SpeedRequest } from './previews-speed-child';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CHILD = path.join(import.meta.dirname, 'previews-speed-child.ts');

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

export class BundledEngine {
  private nextId = 1;

  private constructor(
    private readonly child: ChildProcess,
    private readonly bundle: LambdaBundle,
  ) {}

  static async start(): Promise<BundledEngine> {
    const bundle = await bundleAsLambda(CHILD, 'previews-speed');
    const pdfjsDir = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    // Not the bench's own flags (tsx's loader): the Lambda's.
    const child = fork(bundle.outfile, [], { cwd: ROOT, execArgv: LAMBDA_NODE_ARGS, env: lambdaChildEnv({ PDFJS_ASSETS_DIR: pdfjsDir }), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`the bundled engine exited on start (${code})`)));
    });
    return new BundledEngine(child, bundle);
  }

  /** One render of the file's pages in the child; its wall time there. */
  async render(file: string, params: Record<string, unknown>, outDir: string, renderer?: Renderer): Promise<{ ms: number; images: number; failures: string[] }> {
    const a = await this.ask({ op: 'render', path: file, params, outDir, renderer });
    return { ms: a.ms!, images: a.images!, failures: a.failures! };
  }

  /** The child's peak RSS so far (VmHWM), its threads included. */
  async peakRssMb(): Promise<number | null> {
    return (await this.ask({ op: 'peak-rss' })).peakRssMb ?? null;
  }

  async close(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.bundle.remove();
  }

  private ask(req: WithoutId<SpeedRequest>): Promise<SpeedAnswer> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onMessage = (m: SpeedAnswer) => {
        if (m.id !== id) return;
        done();
        if (m.error) reject(new Error(m.error));
        else resolve(m);
      };
      const onExit = (code: number | null, signal: string | null) => {
        done();
        reject(new Error(`the bundled engine ended (${signal ?? `exit ${code}`})`));
      };
      const done = () => {
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
      };
      this.child.on('message', onMessage);
      this.child.on('exit', onExit);
      this.child.send({ ...req, id } as SpeedRequest);
    });
  }
}
