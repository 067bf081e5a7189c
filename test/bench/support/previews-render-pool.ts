/**
 * The bench's side of previews-render-child.ts: one child process that renders
 * a file at a time under a wall-clock limit. A child that overruns the limit
 * or dies is killed and replaced on the next call; its file is reported as
 * `timeout` or `crash`, never thrown.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { RenderAnswer, RenderRequest } from './previews-render-child';

const CHILD = path.join(import.meta.dirname, 'previews-render-child.ts');
const ROOT = path.resolve(import.meta.dirname, '../../..');
const START_TIMEOUT_MS = 60_000;

export type RenderOutcome = RenderAnswer | { id: number; ok: false; name: 'timeout' | 'crash'; message: string; ms: number };

export class RenderChild {
  private child?: ChildProcess;
  private ready?: Promise<void>;
  private nextId = 1;

  private start(): Promise<void> {
    const child = fork(CHILD, [], { cwd: ROOT, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    // Drained and dropped: a child's stderr (pdfjs, sharp) must not fill its pipe.
    child.stderr?.resume();
    this.child = child;
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('render child did not start')), START_TIMEOUT_MS);
      child.once('message', () => {
        clearTimeout(timer);
        resolve();
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`render child exited on start (${code})`));
      });
    });
    return this.ready;
  }

  async render(req: Omit<RenderRequest, 'id'>, timeoutMs: number): Promise<RenderOutcome> {
    if (!this.child) await this.start();
    else await this.ready;
    const child = this.child!;
    const id = this.nextId++;
    const t0 = performance.now();
    return new Promise<RenderOutcome>((resolve) => {
      const done = (outcome: RenderOutcome) => {
        clearTimeout(timer);
        // A child that timed out or died is replaced on the next call.
        if (!outcome.ok && (outcome.name === 'timeout' || outcome.name === 'crash') && this.child === child) this.child = undefined;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(outcome);
      };
      const onMessage = (m: RenderAnswer) => {
        if (m.id === id) done(m);
      };
      const onExit = (code: number | null, signal: string | null) =>
        done({ id, ok: false, name: 'crash', message: `the render process ended (${signal ?? `exit ${code}`})`, ms: performance.now() - t0 });
      const timer = setTimeout(() => {
        child.off('exit', onExit);
        child.kill('SIGKILL');
        done({ id, ok: false, name: 'timeout', message: `no answer within ${timeoutMs / 1000} s`, ms: performance.now() - t0 });
      }, timeoutMs);
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.send({ ...req, id } satisfies RenderRequest);
    });
  }

  /** Ends the child (it would otherwise keep the bench alive). */
  close(): void {
    this.child?.kill('SIGKILL');
    this.child = undefined;
  }
}
