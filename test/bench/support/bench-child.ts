/**
 * A child process that does one bench job at a time under a wall-clock limit.
 * Real-world files can make an engine spin without yielding or exhaust its
 * memory; such a file is ended with its child (and counted as `timeout` or
 * `crash`), and the next call starts a fresh child. Never throws for a file.
 *
 * The child module answers `process.send({ ready: true })` once loaded, then
 * one message `{ id, ok: true, … } | { id, ok: false, name, message }` per
 * request `{ id, … }`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const START_TIMEOUT_MS = 60_000;

export type ChildFailure = { id: number; ok: false; name: string; message: string; ms: number };

export class BenchChild<Req extends object, Ans extends { id: number }> {
  private child?: ChildProcess;
  private ready?: Promise<void>;
  private nextId = 1;

  constructor(private readonly module: string) {}

  private start(): Promise<void> {
    const child = fork(this.module, [], { cwd: ROOT, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    // Drained and dropped: a child's stderr (pdfjs, sharp) must not fill its pipe.
    child.stderr?.resume();
    this.child = child;
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${path.basename(this.module)} did not start`)), START_TIMEOUT_MS);
      child.once('message', () => {
        clearTimeout(timer);
        resolve();
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${path.basename(this.module)} exited on start (${code})`));
      });
    });
    return this.ready;
  }

  async run(req: Req, timeoutMs: number): Promise<Ans | ChildFailure> {
    if (!this.child) await this.start();
    else await this.ready;
    const child = this.child!;
    const id = this.nextId++;
    const t0 = performance.now();
    return new Promise((resolve) => {
      const done = (outcome: Ans | ChildFailure, replace: boolean) => {
        clearTimeout(timer);
        if (replace && this.child === child) this.child = undefined;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(outcome);
      };
      const onMessage = (m: Ans) => {
        if (m.id === id) done(m, false);
      };
      const onExit = (code: number | null, signal: string | null) =>
        done({ id, ok: false, name: 'crash', message: `the process ended (${signal ?? `exit ${code}`})`, ms: performance.now() - t0 }, true);
      const timer = setTimeout(() => {
        child.off('exit', onExit);
        child.kill('SIGKILL');
        done({ id, ok: false, name: 'timeout', message: `no answer within ${timeoutMs / 1000} s`, ms: performance.now() - t0 }, true);
      }, timeoutMs);
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.send({ ...req, id });
    });
  }

  /** Ends the child (it would otherwise keep the bench alive). */
  close(): void {
    this.child?.kill('SIGKILL');
    this.child = undefined;
  }
}
