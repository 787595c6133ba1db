import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { ApiRoute } from '../functions/routes.ts';

/**
 * Every DynamoDB permission the functions hold, named by what the caller does with the
 * table. Each list is exactly the commands its adapter sends (functions/adapters/dynamodb),
 * so a function can do what its code does and nothing more:
 * test/store/integration/table-access.test.ts runs every operation through its paths and checks
 * that what it sent is what it is granted, action for action. The CDK's grantReadData and
 * grantWriteData are not used: they add Query, BatchGetItem, DescribeTable, ConditionCheckItem,
 * DeleteItem and more.
 */
export const TABLE_ACCESS = {
  /** listInventory: one Query per shard, page by page; nothing scans the inventory. */
  inventoryList: ['dynamodb:Query'],
  /** A one-pet read (GET /inventory/{petId}, GET /pets/{petId}) gets one item. */
  inventoryRead: ['dynamodb:GetItem'],
  /**
   * updateInventory: one conditional UpdateItem (a compare-and-set too); a missing pet fails its
   * condition, no read first. With an Idempotency-Key the write is an Update in a transaction with
   * the key's record, and the answer one consistent GetItem of the entry.
   */
  inventoryUpdate: ['dynamodb:UpdateItem', 'dynamodb:GetItem'],
  /** adjustInventory: the entry's Update in the transaction with the key's record (and an expiry's), then one consistent read of it. */
  inventoryAdjust: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
  /** adjustInventoryBatch: one transaction that updates each entry, then one consistent read of them all (GetItem for a batch of one). */
  inventoryBatchAdjust: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'],
  /**
   * Adjustments and a keyed update: read a key's record, put it in the same transaction as the change (or alone,
   * for a refusal), and record the answer on it (UpdateItem).
   */
  idempotencyRecording: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
  /** reserveInventory: a key's record read, and put with the reservation's answer in the holds' transaction (or alone, for a refusal): its answer is known before it is written, so never recorded after. */
  idempotencyRecordingWithAnswer: ['dynamodb:GetItem', 'dynamodb:PutItem'],
  /** reserveInventory: each hold an Update action of the transaction that puts the reservation and the key's record; an expiry the stored figures wait for is Updates too. */
  inventoryHold: ['dynamodb:UpdateItem'],
  /** commitReservation: each pet's Update in the settling transaction, then one consistent read of the entries it left (GetItem for one pet). */
  inventorySettle: ['dynamodb:UpdateItem', 'dynamodb:GetItem', 'dynamodb:BatchGetItem'],
  /** releaseReservation: each pet's Update in the settling transaction; it answers the reservation alone, so reads no entry. */
  inventoryRelease: ['dynamodb:UpdateItem'],
  /** getReservation: one consistent GetItem of the record. */
  reservationRead: ['dynamodb:GetItem'],
  /** reserveInventory: the record put in the holds' transaction; an expiry it records first reads a record and updates it. */
  reservationWriting: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
  /**
   * Commit, release, and an adjustment that must record an expiry first: read the record, update
   * it in the transaction with the pets' Updates.
   */
  reservationSettling: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
  /** The sweep: a Query of the index of the active ones (granted on the index), then as an expiry. */
  reservationSweep: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
  /** The sweep's Query of the sparse index of active reservations by expiresAt. */
  reservationDueQuery: ['dynamodb:Query'],
  /** PUT and DELETE /inventory/{petId}/low-stock-threshold: one conditional UpdateItem of the entry's threshold alone. */
  lowStockThresholdWrite: ['dynamodb:UpdateItem'],
  /** GET /inventory/{petId}/changes: one Query of the pet's partition of the history. */
  historyRead: ['dynamodb:Query'],
  /** The stream consumer writes entries in batches (a Put each: writing one again writes the same item). */
  historyRecording: ['dynamodb:BatchWriteItem'],
  /**
   * GET /inventory/changes: one strongly consistent Query of the feed's partition, from the cursor's
   * entry on; a second, of its sequence item, only when the cursor's entry has expired and no later one is there.
   */
  changeFeedRead: ['dynamodb:Query'],
  /**
   * The stream consumer appends to the feed: one TransactWriteItems updating the sequence item
   * (conditioned on its value) and putting the entries and their markers.
   */
  changeFeedAppend: ['dynamodb:UpdateItem', 'dynamodb:PutItem'],
  /** GET /health reads one entry to see that the store answers. */
  healthProbe: ['dynamodb:GetItem'],
  /** The authorizer looks a key up by its hash. */
  keyLookup: ['dynamodb:GetItem'],
  /** The authorizer counts an address's failed authentications (UpdateItem), reads its standing before a lookup (GetItem) and records known keys (UpdateItem). */
  failedAuthenticationCounting: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
  /**
   * The plan limiter: one conditional UpdateItem counts and checks the ban, UpdateItem also
   * counts rejections and writes a ban on the day items, PutItem its record. It reads nothing.
   */
  usageCounting: ['dynamodb:UpdateItem', 'dynamodb:PutItem'],
} as const satisfies Record<string, readonly `dynamodb:${string}`[]>;

export type TableAccess = keyof typeof TABLE_ACCESS;

/** What a route's `inventoryAccess` (functions/routes.ts) means in IAM terms, per table. */
export const ROUTE_TABLE_ACCESS = {
  list: { inventory: 'inventoryList' },
  read: { inventory: 'inventoryRead' },
  update: { inventory: 'inventoryUpdate', idempotencyRecords: 'idempotencyRecording' },
  // A removal the stored figures refuse while an expired hold is counted records that expiry first.
  adjust: { inventory: 'inventoryAdjust', idempotencyRecords: 'idempotencyRecording', reservations: 'reservationSettling' },
  adjustBatch: { inventory: 'inventoryBatchAdjust', idempotencyRecords: 'idempotencyRecording', reservations: 'reservationSettling' },
  reserve: { inventory: 'inventoryHold', idempotencyRecords: 'idempotencyRecordingWithAnswer', reservations: 'reservationWriting' },
  readReservation: { reservations: 'reservationRead' },
  commitReservation: { inventory: 'inventorySettle', reservations: 'reservationSettling' },
  releaseReservation: { inventory: 'inventoryRelease', reservations: 'reservationSettling' },
  history: { inventory: 'inventoryRead', history: 'historyRead' },
  feed: { changeFeed: 'changeFeedRead' },
  thresholdRead: { inventory: 'inventoryRead' },
  thresholdWrite: { inventory: 'lowStockThresholdWrite' },
} as const satisfies Record<ApiRoute['inventoryAccess'], RouteTableAccess>;

export interface RouteTableAccess {
  inventory?: TableAccess;
  changeFeed?: TableAccess;
  idempotencyRecords?: TableAccess;
  history?: TableAccess;
  reservations?: TableAccess;
}

/** Grants exactly the actions of one access intent on the table itself, or on one of its indexes (no wildcard). */
export function grantTableAccess(grantee: IGrantable, table: ITable, access: TableAccess, indexName?: string): Grant {
  return Grant.addToPrincipal({
    grantee,
    actions: [...TABLE_ACCESS[access]],
    resourceArns: [indexName === undefined ? table.tableArn : `${table.tableArn}/index/${indexName}`],
  });
}
