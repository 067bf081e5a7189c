/**
 * The soft deadline of the guarded call running in this thread, in epoch ms:
 * 80% into its budget. Past the budget the thread is ended and the customer
 * gets an error; an engine that checks this deadline (the interpreter's
 * `deadline` option) can instead stop early with a stated limit and still
 * produce a report. Undefined outside a guarded call (tests, direct calls).
 */
let current: number | undefined;

/** Share of the budget after which an engine should wrap up. */
export const SOFT_DEADLINE_SHARE = 0.8;

export function engineDeadline(): number | undefined {
  return current;
}

export function setEngineDeadline(deadline: number | undefined): void {
  current = deadline;
}
