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
  /** Epoch seconds; DynamoDB TTL deletes idempotency records and expired uploads. */
  ttlAttribute: 'expiresAt',
} as const;
