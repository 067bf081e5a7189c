/**
 * The WebhookScheduler port over aws-local-stepfunctions: each scheduled retry
 * runs the real webhook-retries.asl.json (wait, deliver, loop until done), its
 * Deliver state calling the webhook caller through the invoker.
 *
 * Retries wait minutes to hours, longer than a developer keeps `npm start`
 * running, so with a `stateFile` the pending retries are kept on disk: each
 * record is the machine's state before its next wait (updated after every
 * delivery), and `resume()` restarts them after a restart with what is left of
 * their delay. Without a state file they live in memory only (tests).
 */
import '../../platform/polyfills';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { StateMachine } from 'aws-local-stepfunctions';
import type { WebhookRetryInput, WebhookScheduler } from '../../domain/ports';
import { countStateTransitions, loadLocalDefinition, taskHandlersFor, type WorkerInvoker } from './asl-definition';
import { componentLog, type ComponentLog } from '../../observability/logger';

export interface LocalWebhookSchedulerOptions {
  invoke: WorkerInvoker;
  /** JSON file that keeps pending retries across restarts. */
  stateFile?: string;
  log?: ComponentLog;
  /** Told of every retry execution as it ends (a Standard machine: billed per state transition), for the cost model. */
  onExecutionEnded?: (report: { stateTransitions: number; durationMs: number }) => void;
}

export interface LocalWebhookScheduler extends WebhookScheduler {
  /** Restarts the retries a previous run left pending; returns how many. */
  resume(): Promise<number>;
  /** Ids of the retry executions still waiting or delivering. */
  pending(): string[];
  whenIdle(): Promise<void>;
  /** Aborts every execution; what is on disk is resumed at the next start. */
  stopAll(): Promise<void>;
}

interface PendingRetry {
  id: string;
  /** The machine's input for its next WaitBeforeAttempt. */
  state: WebhookRetryInput;
  /** When the next delivery is due (epoch ms). */
  dueAt: number;
}

export function createLocalWebhookScheduler(opts: LocalWebhookSchedulerOptions): LocalWebhookScheduler {
  const log = opts.log ?? componentLog('webhook-scheduler');
  const records = new Map<string, PendingRetry>(readState(opts.stateFile).map((r) => [r.id, r]));
  const running = new Map<string, { abort: () => void; done: Promise<void> }>();
  let stopping = false;
  // Validated once (schema compilation is costly); each retry passes its own handlers to run().
  let machine: { definition: Record<string, unknown>; sm: StateMachine } | undefined;
  const prepared = () => {
    if (!machine) {
      const definition = loadLocalDefinition('webhook-retries');
      machine = { definition, sm: new StateMachine(definition as never) };
    }
    return machine;
  };

  function persist(): void {
    if (!opts.stateFile) return;
    mkdirSync(dirname(opts.stateFile), { recursive: true });
    const tmp = `${opts.stateFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify([...records.values()], null, 2));
    renameSync(tmp, opts.stateFile);
  }

  function run(record: PendingRetry): void {
    const { definition, sm } = prepared();
    const deliver = taskHandlersFor(definition, opts.invoke);
    // After each delivery the output is the machine's next state: remember it,
    // so a restart continues with the next attempt rather than repeating this one.
    const handlers = Object.fromEntries(
      Object.entries(deliver).map(([state, handler]) => [state, async (input: unknown) => {
        const output = (await handler(input)) as Partial<WebhookRetryInput> & { done?: boolean };
        if (output?.done === true) records.delete(record.id);
        else if (output && typeof output.delaySeconds === 'number') {
          record.state = { ...record.state, ...output } as WebhookRetryInput;
          record.dueAt = Date.now() + output.delaySeconds * 1000;
        }
        persist();
        return output;
      }]),
    );
    const execution = sm.run(record.state as never, { noThrowOnAbort: true, overrides: { taskResourceLocalHandlers: handlers as never } });
    if (opts.onExecutionEnded) {
      const notify = opts.onExecutionEnded;
      const startedAt = Date.now();
      void countStateTransitions(execution.eventLogs as AsyncGenerator<{ type: string }>).then((stateTransitions) =>
        notify({ stateTransitions, durationMs: Date.now() - startedAt }),
      );
    }
    const done = execution.result.then(
      () => {
        if (stopping) return;
        records.delete(record.id);
        persist();
      },
      (err: unknown) => {
        // A failed retry execution is given up, as it would be in the cloud.
        log(`webhook retry ${record.id} failed; giving up`, err, { jobId: record.state.jobId, accountId: record.state.accountId });
        records.delete(record.id);
        persist();
      },
    ).finally(() => running.delete(record.id));
    running.set(record.id, { abort: execution.abort, done });
  }

  return {
    async scheduleRetry(input) {
      const record: PendingRetry = { id: randomUUID(), state: { ...input }, dueAt: Date.now() + input.delaySeconds * 1000 };
      records.set(record.id, record);
      persist();
      run(record);
    },
    async resume() {
      let n = 0;
      for (const record of records.values()) {
        if (running.has(record.id)) continue;
        record.state = { ...record.state, delaySeconds: Math.max(0, Math.ceil((record.dueAt - Date.now()) / 1000)) };
        run(record);
        n++;
      }
      return n;
    },
    pending: () => [...running.keys()],
    async whenIdle() {
      while (running.size > 0) await Promise.allSettled([...running.values()].map((r) => r.done));
    },
    async stopAll() {
      stopping = true;
      const all = [...running.values()];
      for (const r of all) r.abort();
      await Promise.allSettled(all.map((r) => r.done));
    },
  };
}

function readState(file: string | undefined): PendingRetry[] {
  if (!file) return [];
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return Array.isArray(parsed) ? parsed.filter(isPendingRetry) : [];
  } catch {
    return [];
  }
}

function isPendingRetry(v: unknown): v is PendingRetry {
  const r = v as PendingRetry;
  return typeof r?.id === 'string' && typeof r.dueAt === 'number' && typeof r.state?.jobId === 'string' && typeof r.state.attempt === 'number';
}
