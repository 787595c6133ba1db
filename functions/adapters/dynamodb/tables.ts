/**
 * Key schemas of the service's tables, shared by the CDK stack and the local store so that
 * what runs on a laptop has the same shape as what is deployed.
 */
export const inventoryTable = {
  partitionKey: { name: 'petId', type: 'N' },
} as const;

export const apiKeysTable = {
  partitionKey: { name: 'keyHash', type: 'S' },
  /** Operators address keys by their public id, never by the secret or its hash. */
  keyIdIndex: { indexName: 'byKeyId', partitionKey: { name: 'keyId', type: 'S' } },
} as const;

export const usageCountersTable = {
  partitionKey: { name: 'counterId', type: 'S' },
  timeToLiveAttribute: 'expiresAt',
} as const;

/** One record per API key and Idempotency-Key: the outcome of an adjustment, replayed for 24 hours. */
export const idempotencyRecordsTable = {
  partitionKey: { name: 'recordId', type: 'S' },
  timeToLiveAttribute: 'expiresAt',
} as const;
