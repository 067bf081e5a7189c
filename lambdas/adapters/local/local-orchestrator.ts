/**
 * The Orchestrator port over aws-local-stepfunctions: each job runs the real
 * job pipeline definition (step-definitions/job-pipeline.ts) in-process, its
 * Task states calling the workers through an invoker (worker threads for the
 * heavy steps, the main thread for the light ones; see local/worker-invoker). Executions are named after the job, as the
 * cloud orchestrator names them, so starting a job twice while it runs returns
 * the same execution.
 *
 * In the cloud an execution that dies without reaching Finalise leaves its job
 * `running` forever. Locally a rejected execution (an invalid definition, an
 * unexpected throw, the execution timeout) calls the finaliser with
 * `abandoned: true` instead, so no job stays running. Stopping an execution
 * (DELETE /jobs/{id}) does not: the job is being deleted.
 */
import '../../platform/polyfills';
import { StateMachine } from 'aws-local-stepfunctions';
import type { Orchestrator, PipelineInput } from '../../domain/ports';
import { loadLocalDefinition, localExecutionArn, localStateMachineArn, taskHandlersFor, type WorkerInvoker } from './asl-definition';
import { componentLog, type ComponentLog } from '../../observability/logger';

export interface LocalOrchestratorOptions {
  invoke: WorkerInvoker;
  /** The parsed, substituted definition; defaults to the job pipeline's. Tests pass broken ones. */
  definition?: () => Record<string, unknown>;
  log?: ComponentLog;
}

export interface LocalOrchestrator extends Orchestrator {
  /** Workflow ids of the executions still running. */
  running(): string[];
  /** Resolves when the execution has ended (and any abandonment was finalised). */
  whenDone(workflowId: string): Promise<void>;
  /** Aborts every execution (shutdown); their jobs resume at the next start. */
  stopAll(): Promise<void>;
}

interface Execution {
  abort: () => void;
  stopped: boolean;
  done: Promise<void>;
}

const MACHINE = 'pipeline';

export function createLocalOrchestrator(opts: LocalOrchestratorOptions): LocalOrchestrator {
  const log = opts.log ?? componentLog('orchestrator');
  const loadDefinition = opts.definition ?? (() => loadLocalDefinition('job-pipeline'));
  const executions = new Map<string, Execution>();

  // Validating a definition compiles the ASL JSON schema, which is costly (it
  // took half the main thread's CPU when each job built its own machine, under
  // 50 concurrent job submissions). The definition is fixed, so it is
  // validated once and the machine serves every execution.
  let prepared: { machine: StateMachine; handlers: ReturnType<typeof taskHandlersFor> } | undefined;
  function prepare(): NonNullable<typeof prepared> {
    if (!prepared) {
      const definition = loadDefinition();
      const machine = new StateMachine(definition as never, { validationOptions: { checkArn: true, checkPaths: true } });
      prepared = { machine, handlers: taskHandlersFor(definition, opts.invoke) };
    }
    return prepared;
  }

  async function abandon(input: PipelineInput, workflowId: string, err: unknown): Promise<void> {
    log(`execution ${workflowId} failed; finalising the job as abandoned`, err, { jobId: input.jobId, accountId: input.accountId });
    try {
      await opts.invoke('finalise', { jobId: input.jobId, accountId: input.accountId, abandoned: true });
    } catch (finaliseErr) {
      log('finalising the abandoned job failed', finaliseErr, { jobId: input.jobId, accountId: input.accountId });
    }
  }

  function start(input: PipelineInput, workflowId: string): Execution {
    const execution: Execution = { abort: () => {}, stopped: false, done: Promise.resolve() };
    let result: Promise<unknown>;
    try {
      const { machine, handlers } = prepare();
      const run = machine.run(input as never, {
        noThrowOnAbort: true,
        overrides: { taskResourceLocalHandlers: handlers as never },
        context: {
          Execution: { Id: workflowId, Name: input.jobId },
          StateMachine: { Id: localStateMachineArn(MACHINE), Name: `proofline-local-${MACHINE}` },
        },
      });
      execution.abort = run.abort;
      result = run.result;
    } catch (err) {
      result = Promise.reject(err);
    }
    execution.done = result.then(
      () => undefined,
      (err: unknown) => (execution.stopped ? undefined : abandon(input, workflowId, err)),
    ).finally(() => {
      if (executions.get(workflowId) === execution) executions.delete(workflowId);
    });
    return execution;
  }

  return {
    async startJob(input) {
      const workflowId = localExecutionArn(MACHINE, input.jobId);
      if (!executions.has(workflowId)) executions.set(workflowId, start(input, workflowId));
      return workflowId;
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
      for (const e of all) { e.stopped = true; e.abort(); }
      await Promise.allSettled(all.map((e) => e.done));
    },
  };
}
