import { describe, expect, it } from 'vitest';
import { awaitTerminalJob, FIRST_POLL_MS, MAX_POLL_MS } from '../../../lambdas/domain/use-cases/await-job';
import type { JobGraph, JobRecord, Status } from '../../../lambdas/domain/model';
import type { JobStore } from '../../../lambdas/domain/ports';

/** A job store whose job turns terminal after `polls` reads, on a simulated clock. */
function scenario(statusAfter: (reads: number) => Status) {
  let reads = 0;
  let now = 0;
  const sleeps: number[] = [];
  const job = (): JobRecord => ({ id: 'job_x', status: statusAfter(reads) } as JobRecord);
  const jobs = {
    getJob: async () => {
      reads++;
      return job();
    },
    getGraph: async () => ({ job: job(), tasks: [], steps: [], audit: {} }) as JobGraph,
  } as unknown as JobStore;
  const deps = {
    jobs,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    elapsed: () => now,
  };
  return { deps, sleeps, reads: () => reads };
}

describe('waiting for a job in sync mode', () => {
  it('polls at 100 ms first and backs off to once a second', async () => {
    const s = scenario(() => 'running');
    const result = await awaitTerminalJob(s.deps, 'acct', 'job_x', 5000);
    expect(result.terminal).toBe(false);
    expect(s.sleeps.slice(0, 6)).toEqual([FIRST_POLL_MS, 200, 400, 800, MAX_POLL_MS, MAX_POLL_MS]);
    expect(s.sleeps.reduce((a, b) => a + b, 0)).toBe(5000);
  });

  it('returns as soon as the job is terminal', async () => {
    const s = scenario((reads) => (reads >= 3 ? 'done' : 'running'));
    const result = await awaitTerminalJob(s.deps, 'acct', 'job_x', 27_000);
    expect(result.terminal).toBe(true);
    expect(result.graph?.job.status).toBe('done');
    expect(s.sleeps).toEqual([100, 200]);
  });

  it('never sleeps past the wait', async () => {
    const s = scenario(() => 'pending');
    await awaitTerminalJob(s.deps, 'acct', 'job_x', 250);
    expect(s.sleeps).toEqual([100, 150]);
  });

  it('reports a job that vanished as not terminal, without a graph', async () => {
    const jobs = { getJob: async () => null } as unknown as JobStore;
    expect(await awaitTerminalJob({ jobs }, 'acct', 'job_x', 1000)).toEqual({ graph: null, terminal: false });
  });

  it('answers from a final read at the deadline, so a job that finished during the last sleep counts as terminal', async () => {
    let finished = false;
    const jobs = {
      getJob: async () => ({ id: 'job_x', status: 'running' }) as JobRecord,
      getGraph: async () => ({ job: { id: 'job_x', status: finished ? 'done' : 'running' }, tasks: [], steps: [], audit: {} }) as unknown as JobGraph,
    } as unknown as JobStore;
    let now = 0;
    const sleep = async (ms: number) => {
      now += ms;
      finished = true;
    };
    const result = await awaitTerminalJob({ jobs, sleep, elapsed: () => now }, 'acct', 'job_x', 100);
    expect(result).toMatchObject({ terminal: true, graph: { job: { status: 'done' } } });
  });
});
