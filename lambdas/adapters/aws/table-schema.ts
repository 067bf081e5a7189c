/**
 * The one DynamoDB table's key schema, shared by the CDK storage construct and
 * by the local runtime's provisioning of dynalite, so both create the same table.
 * Item layout (single-table design) is the DynamoDB adapters' business; see
 * dynamo-items.ts.
 */
export const TABLE_SCHEMA = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Account listings: jobs of an account newest first, keys of all accounts. */
  gsi1: { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  /**
   * The retention sweep's (dynamo-expired-jobs.ts): jobs by the UTC day of their expiry, in order of
   * it. Sparse: only job items with an expiry carry `expiresDay`, so the index holds nothing else,
   * and it keeps of them only what deleting a job needs.
   */
  expiryIndex: { name: 'expiry', partitionKey: 'expiresDay', sortKey: 'expiresAtIso', projectedAttributes: ['id', 'accountId'] },
  /**
   * The running-job age's (lambdas/monitoring/oldest-running-job.ts): jobs not yet terminal, oldest
   * first (a job id is a ULID, ordered by creation). Sparse: a job item carries `unfinished` from its
   * creation until the transition that makes it terminal removes it, so reading the oldest is one
   * small Query, where a Scan every few minutes would read the whole table.
   */
  unfinishedIndex: { name: 'unfinished', partitionKey: 'unfinished', sortKey: 'id' },
  /** Epoch seconds; DynamoDB TTL deletes idempotency records and expired uploads. */
  ttlAttribute: 'expiresAt',
} as const;
