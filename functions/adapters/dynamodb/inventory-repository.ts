import { GetCommand, paginateQuery, QueryCommand, type DynamoDBDocumentClient, type NumberValue } from '@aws-sdk/lib-dynamodb';
import type { ChangeAttribution } from '../../domain/change-attribution.ts';
import {
  byPetId,
  type InventoryRepository,
  refusedWrite,
  type VersionedItem,
  type WritePreconditions,
} from '../../domain/inventory-service.ts';
import type { InventoryItem, PetId, PetStatus } from '../../domain/schemas.ts';
import { isThrottlingError } from '@smithy/service-error-classification';
import { setTimeout as sleep } from 'node:timers/promises';
import { callStore, inDomainTerms, updateIfConditionHolds } from './document-client.ts';
import { mergeSortedPages } from './sorted-merge.ts';
import { inventoryTable } from './tables.ts';
import { VERSION_ATTRIBUTE, versionedChange } from './versioned-change.ts';

interface StoredInventoryItem {
  petId: NumberValue;
  quantity: NumberValue;
  status: PetStatus;
}

export interface InventoryKey {
  shard: number;
  petId: PetId;
}

/** 2^64 divided by the golden ratio, odd: multiplying by it mixes every bit of an id into the top bits. */
const FIBONACCI_MULTIPLIER = 0x9e3779b97f4a7c15n;
const SHARD_BITS = Math.log2(inventoryTable.shards);
if (!Number.isInteger(SHARD_BITS)) throw new Error(`inventoryTable.shards must be a power of two, not ${inventoryTable.shards}.`);
const SHARD_SHIFT = BigInt(64 - SHARD_BITS);

/**
 * The inventory item's key: its shard and its petId. The shard is the top bits of petId times
 * the Fibonacci multiplier (mod 2^64), so consecutive ids and ids that share their low bits
 * (timestamps, snowflake-style ids with an idle sequence) spread evenly over the shards,
 * where petId mod 16 would put every multiple of 16 on one partition.
 */
export function inventoryKey(petId: PetId): InventoryKey {
  return { shard: Number(BigInt.asUintN(64, petId * FIBONACCI_MULTIPLIER) >> SHARD_SHIFT), petId };
}

/** Every shard's partition key value. */
export const INVENTORY_SHARDS: readonly number[] = Array.from({ length: inventoryTable.shards }, (_, shard) => shard);

/**
 * Items per Query page: the listing holds two pages per shard (the one it merges and the next),
 * so this bounds its memory; 1,000 items are about 45 KB of DynamoDB data, 12 read units.
 */
export const INVENTORY_PAGE_SIZE = 1_000;

const PROJECTION = { ProjectionExpression: 'petId, quantity, #status', ExpressionAttributeNames: { '#status': 'status' } } as const;
/** One entry's read: the listing's fields and the version, its ETag. */
const VERSIONED_PROJECTION = {
  ProjectionExpression: `${PROJECTION.ProjectionExpression}, #version`,
  ExpressionAttributeNames: { ...PROJECTION.ExpressionAttributeNames, '#version': VERSION_ATTRIBUTE },
} as const;

/** A Query of one shard's partition; `names` adds the expression names the rest of the input uses. */
function shardQuery(tableName: string, shard: number, names: Record<string, string> = {}) {
  return {
    TableName: tableName,
    KeyConditionExpression: '#shard = :shard',
    ExpressionAttributeNames: { ...names, '#shard': inventoryTable.partitionKey.name },
    ExpressionAttributeValues: { ':shard': shard },
  };
}

export function toInventoryItem(stored: Record<string, unknown>): InventoryItem {
  const { petId, quantity, status } = stored as unknown as StoredInventoryItem;
  return { petId: BigInt(petId.toString()), quantity: Number(quantity.toString()), status };
}

export function toVersionedItem(stored: Record<string, unknown>): VersionedItem {
  const { version } = stored as { version?: NumberValue };
  return { item: toInventoryItem(stored), version: version === undefined ? 0 : Number(version.toString()) };
}

/**
 * Entry writes an import or a seed keeps in flight. Each is an UpdateItem of its own (a batch
 * write could only put whole items, which would reset their versions), so they overlap instead.
 * On AWS each is a request of its own and the rate grows with them up to the table's capacity
 * (a throttled write backs off, below); DynamoDB Local runs them in one JVM, where the rates at
 * 16, 32 and 64 are in bench/results.md, section 6.
 */
export const IMPORT_WRITES_IN_FLIGHT = 32;
/** Tries of one entry's write while the store throttles it, each after the SDK's own retries: with the backoff below, about 13 s. */
const THROTTLED_WRITE_TRIES = 8;
const THROTTLED_BACKOFF_BASE_MS = 50;

/** Runs a write again while the store throttles it, after a full-jitter backoff, so that many writers spread out instead of retrying in step. */
async function withThrottlingBackoff(write: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await write();
      return;
    } catch (error) {
      const sdkError = error as Parameters<typeof isThrottlingError>[0];
      if (!(error instanceof Error) || !isThrottlingError(sdkError) || attempt >= THROTTLED_WRITE_TRIES) throw error;
      await sleep(Math.random() * THROTTLED_BACKOFF_BASE_MS * 2 ** attempt);
    }
  }
}

/** One shard's entries in petId order, a page at a time. */
async function* shardPages(client: DynamoDBDocumentClient, tableName: string, shard: number): AsyncGenerator<InventoryItem[]> {
  const pages = paginateQuery(
    { client, pageSize: INVENTORY_PAGE_SIZE },
    {
      ...shardQuery(tableName, shard, PROJECTION.ExpressionAttributeNames),
      ProjectionExpression: PROJECTION.ProjectionExpression,
      // A pet written before the listing began is always in it, whatever replica answers.
      ConsistentRead: true,
    },
  );
  try {
    for await (const page of pages) yield (page.Items ?? []).map(toInventoryItem);
  } catch (error) {
    throw inDomainTerms(error);
  }
}

/**
 * The one conditional write of a quantity (PATCH, alone or in an adjustment transaction when sent
 * with an Idempotency-Key), no read first: it decides existence (no upsert), the compare-and-set
 * and If-Match. A compare-and-set compares with what the client read and nothing else: a stored
 * count that merely equals the new one may be another writer's change. A quantity already stored
 * is no change: nothing is written, so no version and no history entry.
 */
export function quantityWrite(
  tableName: string,
  petId: PetId,
  quantity: number,
  attribution: ChangeAttribution,
  { changeFrom, versions }: WritePreconditions,
) {
  const change = versionedChange(attribution);
  const versionValues = Object.fromEntries((versions ?? []).map((version, index) => [`:ifMatch${index}`, version]));
  // If-Match "0" names an entry not written since versions were introduced: it has no version attribute.
  const versionCondition = versions
    ? `(${versions.includes(0) ? 'attribute_not_exists(#version) OR ' : ''}#version IN (${Object.keys(versionValues).join(', ')}))`
    : undefined;
  return {
    TableName: tableName,
    Key: inventoryKey(petId),
    UpdateExpression: `SET quantity = :quantity, ${change.set}`,
    ConditionExpression: [
      'attribute_exists(petId)',
      ...(changeFrom === undefined ? [] : ['quantity = :changeFrom']),
      ...(versionCondition ? [versionCondition] : []),
      'quantity <> :quantity',
    ].join(' AND '),
    ExpressionAttributeNames: change.names,
    ExpressionAttributeValues: {
      ':quantity': quantity,
      ...(changeFrom === undefined ? {} : { ':changeFrom': changeFrom }),
      ...versionValues,
      ...change.values,
    },
  };
}

export function createInventoryRepository(
  client: DynamoDBDocumentClient,
  tableName: string,
  /** Writes putMany keeps in flight: IMPORT_WRITES_IN_FLIGHT unless a benchmark compares others. */
  writesInFlight = IMPORT_WRITES_IN_FLIGHT,
): InventoryRepository {
  /**
   * Creates the entry or replaces its quantity and status, as one versioned change; an entry that
   * already holds both is left alone, so writing it again records nothing.
   */
  async function putEntry(item: InventoryItem, attribution: ChangeAttribution): Promise<void> {
    const change = versionedChange(attribution);
    await updateIfConditionHolds(client, {
      TableName: tableName,
      Key: inventoryKey(item.petId),
      UpdateExpression: `SET quantity = :quantity, #status = :status, ${change.set}`,
      ConditionExpression: 'attribute_not_exists(petId) OR quantity <> :quantity OR #status <> :status',
      ExpressionAttributeNames: { '#status': 'status', ...change.names },
      ExpressionAttributeValues: { ':quantity': item.quantity, ':status': item.status, ...change.values },
    });
  }

  return {
    listAll: () =>
      mergeSortedPages(
        INVENTORY_SHARDS.map((shard) => shardPages(client, tableName, shard)),
        byPetId,
        INVENTORY_PAGE_SIZE,
      ),

    putMany: (items, attribution, onWritten) =>
      callStore(async () => {
        let next = 0;
        let written = 0;
        const writer = async () => {
          while (next < items.length) {
            const item = items[next++]!;
            await withThrottlingBackoff(() => putEntry(item, attribution));
            written += 1;
            onWritten?.(written);
          }
        };
        await Promise.all(Array.from({ length: Math.min(writesInFlight, items.length) }, writer));
      }),

    setQuantity: (petId, quantity, attribution, preconditions = {}) =>
      callStore(async () => {
        const result = await updateIfConditionHolds(client, {
          ...quantityWrite(tableName, petId, quantity, attribution, preconditions),
          ReturnValues: 'ALL_NEW',
          // The refusal carries the entry: which condition failed, the quantity a 409 names, or the unchanged entry, without a read.
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        });
        if (result.held) return { written: toVersionedItem(result.attributes) };
        return refusedWrite(preconditions, result.current ? toVersionedItem(result.current) : undefined);
      }),

    get: (petId, options) =>
      callStore(async () => {
        const { Item } = await client.send(
          new GetCommand({
            TableName: tableName,
            Key: inventoryKey(petId),
            ...VERSIONED_PROJECTION,
            ...(options?.consistent ? { ConsistentRead: true } : {}),
          }),
        );
        return Item ? toVersionedItem(Item) : undefined;
      }),
  };
}

/** Whether any pet has an entry: one item's Query per shard, never a Scan. */
export async function inventoryHasEntries(client: DynamoDBDocumentClient, tableName: string): Promise<boolean> {
  const found = await Promise.all(
    INVENTORY_SHARDS.map(async (shard) => {
      const { Items } = await client.send(new QueryCommand({ ...shardQuery(tableName, shard), ProjectionExpression: '#shard', Limit: 1 }));
      return (Items?.length ?? 0) > 0;
    }),
  );
  return found.includes(true);
}
