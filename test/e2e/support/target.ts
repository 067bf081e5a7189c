/**
 * Which deployment the black-box suite talks to, as the test files see it.
 * The global setup (global-setup.ts) decides and `provide`s it; test files read
 * it with `target()` and talk to it over HTTP only.
 */
import { inject } from 'vitest';

export interface E2ETarget {
  baseUrl: string;
  /** A standard key of the main account. */
  key: string;
  /** An admin key of the main account, when the target has one. */
  adminKey: string | null;
  /** A key of a second account, for isolation checks. */
  otherKey: string | null;
  /** The main account's webhook signing secret, when known. */
  webhookSecret: string | null;
  /**
   * True for the in-process local runtime: loopback sources and webhooks are
   * allowed there, and its knobs are compressed (sync wait 2 s, webhook retries
   * without delay, key cache 1 s). Tests that need those skip elsewhere.
   */
  local: boolean;
  /** The local runtime's configured sync wait, ms (27 000 on a real deployment). */
  syncWaitMs: number;
  /** How long a revoked key may keep working on this target, ms. */
  revocationWindowMs: number;
  /** Local only: DATA_DIR and PORT of the runtime, for the keys CLI. */
  dataDir: string | null;
  port: number | null;
  /** Local only: the runtime's own ports (API, storage gateway, s3rver, dynalite), which no job may name. */
  ownPorts: number[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2eTarget: E2ETarget;
  }
}

export function target(): E2ETarget {
  return inject('e2eTarget');
}
