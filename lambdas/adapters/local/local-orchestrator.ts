/**
 * The Orchestrator port over aws-local-stepfunctions: each job runs the real
 * job pipeline definition (step-definitions/job-pipeline.ts) in-process, its
 * Task states calling the workers through an invoker (worker threads for the
 * heavy steps, the main thread for the light ones; see local/worker-invoker). Executions are named after the
 * job, as the cloud orchestrator names them, so starting a job twice while it
 * runs returns the same execution.
 *
 * As in the cloud, a job starts in the Express kind of the definition (its
 * five-minute TimeoutSeconds) and, if that execution ends without success,
 * the ContinueJob worker continues it in the Standard kind, which is what the
 * cloud's log subscription does (lib/constructs/pipeline.ts). In the cloud a
 * Standard execution that dies without reaching Finalise is finalised by an
 * EventBridge rule; locally a rejected Standard execution (an invalid
 * definition, an unexpected throw, the six-hour timeout) calls the finaliser
 * with `abandoned: true`, so no job stays running. Stopping an execution
 * (DELETE /jobs/{id}) does neither: the job is being deleted.
 */
import '../../platform/polyfills';
import { StateMachine } from 'aws-local-stepfunctions';
import type { PipelineKind } from '../../../step-definitions/job-pipeline';
import type { Orchestrator, PipelineInput } from '../../domain/ports';
import { countStateTransitions, loadLocalDefinition, localExecutionArn, localStateMachineArn, taskHandlersFor, type WorkerInvoker } from './asl-definition';
import { componentLog, type ComponentLog } from '../../observability/logger';

/** What one execution did, for the cost model (npm run cost): Standard is billed by the state transition, Express by the request and the second. */
export interface LocalExecutionReport {
  jobId: string;
  kind: PipelineKind;
  workflowId: string;
  /** States entered, nested Map iterations' included: Step Functions bills each as a transition. */
  stateTransitions: number;
  durationMs: number;
  status: 'succeeded' | 'failed' | 'stopped';
}

export interface LocalOrchestratorOptions {
  invoke: WorkerInvoker;
  /** The parsed, substituted definition of each kind; defaults to the job pipeline's. Tests pass broken or quicker ones. */
  definitions?: Partial<Record<PipelineKind, () => Record<string, unknown>>>;
  log?: ComponentLog;
  /** Told of every execution as it ends. */
  onExecutionEnded?: (report: LocalExecutionReport) => void;
}

export interface LocalOrchestrator extends Orchestrator {
  /** Workflow ids of the executions still running. */
  running(): string[];
  /** Resolves when the execution has ended (and any continuation or abandonment with it). */
  whenDone(workflowId: string): Promise<void>;
  /** Aborts every execution (shutdown); their jobs resume at the next start. */
  stopAll(): Promise<void>;
}

interface Execution {
  abort: () => void;
  stopped: boolean;
  done: Promise<void>;
}

const MACHINES: Record<PipelineKind, string> = { express: 'pipeline', standard: 'pipeline-standard' };
const DOCUMENTS = { express: 'job-pipeline', standard: 'job-pipeline-standard' } as const;

export const localWorkflowId = (kind: PipelineKind, jobId: string): string => localExecutionArn(MACHINES[kind], jobId);

export function createLocalOrchestrator(opts: LocalOrchestratorOptions): LocalOrchestrator {
  const log = opts.log ?? componentLog('orchestrator');
  const executions = new Map<string, Execution>();

  // Validating a definition compiles the ASL JSON schema, which is costly (it
  // took half the main thread's CPU when each job built its own machine, under
  // 50 concurrent job submissions). The definitions are fixed, so each is
  // validated once and its machine serves every execution.
  const prepared = new Map<PipelineKind, { machine: StateMachine; handlers: ReturnType<typeof taskHandlersFor> }>();
  function prepare(kind: PipelineKind): { machine: StateMachine; handlers: ReturnType<typeof taskHandlersFor> } {
    let ready = prepared.get(kind);
    if (!ready) {
      const definition = (opts.definitions?.[kind] ?? (() => loadLocalDefinition(DOCUMENTS[kind])))();
      const machine = new StateMachine(definition as never, { validationOptions: { checkArn: true, checkPaths: true } });
      ready = { machine, handlers: taskHandlersFor(definition, opts.invoke) };
      prepared.set(kind, ready);
    }
    return ready;
  }

  async function abandon(input: PipelineInput, workflowId: string, err: unknown): Promise<void> {
    log(`execution ${workflowId} failed; finalising the job as abandoned`, err, { jobId: input.jobId, accountId: input.accountId });
    try {
      await opts.invoke('finalise', { jobId: input.jobId, accountId: input.accountId, abandoned: true });
    } catch (finaliseErr) {
      log('finalising the abandoned job failed', finaliseErr, { jobId: input.jobId, accountId: input.accountId });
    }
  }

  /** The Express execution ended unfinished: ContinueJob decides (the job may be done or deleted) and starts the Standard one. */
  async function continueInStandard(input: PipelineInput, workflowId: string, err: unknown): Promise<void> {
    log(`express execution ${workflowId} ended without success; continuing job ${input.jobId} in the standard pipeline`, err);
    try {
      await opts.invoke('continueJob', { jobId: input.jobId });
    } catch (continueErr) {
      await abandon(input, workflowId, continueErr);
      return;
    }
    await executions.get(localWorkflowId('standard', input.jobId))?.done;
  }

  function report(kind: PipelineKind, input: PipelineInput, workflowId: string, startedAt: number, counted: Promise<number>, status: LocalExecutionReport['status']): void {
    if (!opts.onExecutionEnded) return;
    const notify = opts.onExecutionEnded;
    void counted.then((stateTransitions) =>
      notify({ jobId: input.jobId, kind, workflowId, stateTransitions, durationMs: Date.now() - startedAt, status }),
    );
  }

  function start(kind: PipelineKind, input: PipelineInput, workflowId: string): Execution {
    const execution: Execution = { abort: () => {}, stopped: false, done: Promise.resolve() };
    const startedAt = Date.now();
    let result: Promise<unknown>;
    let counted: Promise<number> = Promise.resolve(0);
    try {
      const { machine, handlers } = prepare(kind);
      const run = machine.run(input as never, {
        noThrowOnAbort: true,
        overrides: { taskResourceLocalHandlers: handlers as never },
        context: {
          Execution: { Id: workflowId, Name: input.jobId },
          StateMachine: { Id: localStateMachineArn(MACHINES[kind]), Name: `proofline-local-${MACHINES[kind]}` },
        },
      });
      execution.abort = run.abort;
      result = run.result;
      if (opts.onExecutionEnded) counted = countStateTransitions(run.eventLogs as AsyncGenerator<{ type: string }>);
    } catch (err) {
      result = Promise.reject(err);
    }
    execution.done = result
      .then(
        () => report(kind, input, workflowId, startedAt, counted, execution.stopped ? 'stopped' : 'succeeded'),
        (err: unknown) => {
          report(kind, input, workflowId, startedAt, counted, execution.stopped ? 'stopped' : 'failed');
          if (execution.stopped) return undefined;
          return kind === 'express' ? continueInStandard(input, workflowId, err) : abandon(input, workflowId, err);
        },
      )
      .finally(() => {
        if (executions.get(workflowId) === execution) executions.delete(workflowId);
      });
    return execution;
  }

  function startOnce(kind: PipelineKind, input: PipelineInput): string {
    const workflowId = localWorkflowId(kind, input.jobId);
    if (!executions.has(workflowId)) executions.set(workflowId, start(kind, input, workflowId));
    return workflowId;
  }

  return {
    async startJob(input) {
      return startOnce('express', input);
    },
    async continueJob(input) {
      return startOnce('standard', input);
    },
    async stop(workflowId) {
      const execution = executions.get(workflowId);
      if (!execution) return;
      execution.stopped = true;
      execution.abort();
      await execution.done;
    },
    running: () => [...executions.keys()],
    async whenDone(workflowId) {
      await executions.get(workflowId)?.done;
    },
    async stopAll() {
      const all = [...executions.values()];
      for (const e of all) {
        e.stopped = true;
        e.abort();
      }
      await Promise.allSettled(all.map((e) => e.done));
    },
  };
}
