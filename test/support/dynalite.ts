/**
 * dynalite (an in-memory DynamoDB) on an ephemeral loopback port, for tests:
 * the local runtime's own starter. Each call is its own server and store, so
 * test files running in parallel never see each other's tables.
 */
export { startDynalite } from '../../local/standins';

export interface StandIn {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  stop(): Promise<void>;
}
