import {
  BatchWriteCommand,
  GetCommand,
  paginateQuery,
  QueryCommand,
  type DynamoDBDocumentClient,
  type NumberValue,
} from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreUnavailableError } from '../../domain/errors.ts';
import { byPetId, type InventoryRepository } from '../../domain/inventory-service.ts';
import type { InventoryItem, PetId, PetStatus } from '../../domain/schemas.ts';
import { callStore, inDomainTerms, updateIfConditionHolds } from './document-client.ts';
import { mergeSortedPages } from './sorted-merge.ts';
import { inventoryTable } from './tables.ts';

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

/** BatchWriteItem's limit per call. */
const BATCH_WRITE_LIMIT = 25;
/** Calls per batch before unprocessed items count as a store fault; with the backoff below, about 13 s of throttling. */
const BATCH_WRITE_ATTEMPTS = 8;
const BATCH_RETRY_BASE_MS = 50;

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

export function createInventoryRepository(client: DynamoDBDocumentClient, tableName: string): InventoryRepository {
  /** One batch, until the store has taken every item: what it leaves unprocessed (throttling) is sent again after a backoff. */
  async function putBatch(batch: readonly InventoryItem[]): Promise<void> {
    let pending = batch.map((item) => ({ PutRequest: { Item: { ...item, ...inventoryKey(item.petId) } } }));
    for (let attempt = 1; pending.length > 0; attempt += 1) {
      if (attempt > BATCH_WRITE_ATTEMPTS)
        throw new StoreUnavailableError({
          cause: new Error(`${pending.length} items still unprocessed after ${BATCH_WRITE_ATTEMPTS} calls`),
        });
      if (attempt > 1) await sleep(BATCH_RETRY_BASE_MS * 2 ** (attempt - 2));
      const { UnprocessedItems } = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = (UnprocessedItems?.[tableName] ?? []) as typeof pending;
    }
  }

  return {
    listAll: () =>
      mergeSortedPages(
        INVENTORY_SHARDS.map((shard) => shardPages(client, tableName, shard)),
        byPetId,
        INVENTORY_PAGE_SIZE,
      ),

    putMany: (items) =>
      callStore(async () => {
        for (let start = 0; start < items.length; start += BATCH_WRITE_LIMIT) await putBatch(items.slice(start, start + BATCH_WRITE_LIMIT));
      }),

    setQuantity: (petId, quantity) =>
      callStore(async () => {
        const updated = await updateIfConditionHolds(client, {
          TableName: tableName,
          Key: inventoryKey(petId),
          UpdateExpression: 'SET quantity = :quantity',
          // The write itself decides existence: no read first, so no race and no upsert.
          ConditionExpression: 'attribute_exists(petId)',
          ExpressionAttributeValues: { ':quantity': quantity },
          ReturnValues: 'ALL_NEW',
        });
        return updated.held ? toInventoryItem(updated.attributes) : undefined;
      }),

    compareAndSetQuantity: (petId, changeFrom, quantity) =>
      callStore(async () => {
        const result = await updateIfConditionHolds(client, {
          TableName: tableName,
          Key: inventoryKey(petId),
          UpdateExpression: 'SET quantity = :quantity',
          // Equality with what the client read and nothing else: a stored count that merely equals the new one may be
          // another writer's change, which this write would absorb without anyone being told.
          ConditionExpression: 'attribute_exists(petId) AND quantity = :changeFrom',
          ExpressionAttributeValues: { ':quantity': quantity, ':changeFrom': changeFrom },
          ReturnValues: 'ALL_NEW',
          // The refusal carries the entry, so the 409 can name the stored quantity without a read.
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        });
        if (result.held) return { written: toInventoryItem(result.attributes) };
        return result.current ? { storedQuantity: toInventoryItem(result.current).quantity } : { missing: true };
      }),

    get: (petId, options) =>
      callStore(async () => {
        const { Item } = await client.send(
          new GetCommand({
            TableName: tableName,
            Key: inventoryKey(petId),
            ...PROJECTION,
            ...(options?.consistent ? { ConsistentRead: true } : {}),
          }),
        );
        return Item ? toInventoryItem(Item) : undefined;
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
