/**
 * Key schemas of the service's tables, shared by the CDK stack and the local store so that
 * what runs on a laptop has the same shape as what is deployed.
 */

/**
 * Pets are spread over `shards` partitions (the shard is derived from petId, see
 * inventoryKey in inventory-repository.ts), and petId is the numeric sort key within each:
 * every shard reads back in petId order with a Query, and the listing merges the shards'
 * ordered pages without holding the inventory in memory or scanning the table. Writes
 * spread over the shards, so the inventory is not capped at one partition's 1,000 writes a
 * second. Changing the number of shards moves pets between partitions: it needs a migration.
 */
export const inventoryTable = {
  partitionKey: { name: 'shard', type: 'N' },
  sortKey: { name: 'petId', type: 'N' },
  shards: 16,
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

/**
 * One record per reservation (reservations.ts). While it is active it carries `due`, the index's
 * key: the sparse index holds the active ones only, by expiresAt, so the sweep reads the due ones
 * and nothing else. Records are deleted RESERVATION_RETENTION_DAYS after their expiresAt.
 */
export const reservationsTable = {
  partitionKey: { name: 'reservationId', type: 'S' },
  dueIndex: {
    indexName: 'byDueTime',
    partitionKey: { name: 'due', type: 'S' },
    sortKey: { name: 'expiresAt', type: 'N' },
  },
  timeToLiveAttribute: 'deleteAt',
} as const;

/** How long a settled reservation can still be read: a month after its expiresAt, longer than any cart's checkout. */
export const RESERVATION_RETENTION_DAYS = 30;

/**
 * Each pet's history, one item per change, in version order: a page is one Query of the pet's
 * partition. Entries expire after the stage's retention (HISTORY_RETENTION_DAYS).
 */
export const historyTable = {
  partitionKey: { name: 'petId', type: 'N' },
  sortKey: { name: 'version', type: 'N' },
  timeToLiveAttribute: 'expiresAt',
} as const;

/**
 * The change feed: every pet's changes in one global order. Entries live in one partition
 * (CHANGE_FEED_PARTITION) under `seq`, numbered by a sequence item at seq 0 that each batch of
 * entries advances in the same transaction (change-feed-repository.ts); a marker per
 * (petId, version), in a partition of the pet's own, keeps a change from being numbered twice.
 */
export const changeFeedTable = {
  partitionKey: { name: 'feed', type: 'S' },
  sortKey: { name: 'seq', type: 'N' },
  timeToLiveAttribute: 'expiresAt',
} as const;
