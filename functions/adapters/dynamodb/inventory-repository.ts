import { GetCommand, paginateQuery, QueryCommand, type DynamoDBDocumentClient, type NumberValue } from '@aws-sdk/lib-dynamodb';
import type { ChangeAttribution } from '../../domain/change-attribution.ts';
import { byPetId, type InventoryRepository } from '../../domain/inventory-service.ts';
import type { InventoryItem, PetId, PetStatus } from '../../domain/schemas.ts';
import { callStore, inDomainTerms, updateIfConditionHolds } from './document-client.ts';
import { mergeSortedPages } from './sorted-merge.ts';
import { inventoryTable } from './tables.ts';
import { versionedChange } from './versioned-change.ts';

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

/**
 * Entry writes an import keeps in flight: each is an UpdateItem of its own (a batch write could
 * only put whole items, which would reset their versions), so they overlap instead.
 */
const IMPORT_WRITES_IN_FLIGHT = 16;

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

    putMany: (items, attribution) =>
      callStore(async () => {
        let next = 0;
        const writer = async () => {
          while (next < items.length) await putEntry(items[next++]!, attribution);
        };
        await Promise.all(Array.from({ length: Math.min(IMPORT_WRITES_IN_FLIGHT, items.length) }, writer));
      }),

    setQuantity: (petId, quantity, attribution) =>
      callStore(async () => {
        const change = versionedChange(attribution);
        const updated = await updateIfConditionHolds(client, {
          TableName: tableName,
          Key: inventoryKey(petId),
          UpdateExpression: `SET quantity = :quantity, ${change.set}`,
          // The write itself decides existence: no read first, so no race and no upsert. A quantity that is stored
          // already is no change: nothing is written, so no version and no history entry.
          ConditionExpression: 'attribute_exists(petId) AND quantity <> :quantity',
          ExpressionAttributeNames: change.names,
          ExpressionAttributeValues: { ':quantity': quantity, ...change.values },
          ReturnValues: 'ALL_NEW',
          // The refusal carries the entry: an unchanged one is the answer, without a read.
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        });
        if (updated.held) return toInventoryItem(updated.attributes);
        return updated.current ? toInventoryItem(updated.current) : undefined;
      }),

    compareAndSetQuantity: (petId, changeFrom, quantity, attribution) =>
      callStore(async () => {
        const change = versionedChange(attribution);
        const result = await updateIfConditionHolds(client, {
          TableName: tableName,
          Key: inventoryKey(petId),
          UpdateExpression: `SET quantity = :quantity, ${change.set}`,
          // Equality with what the client read and nothing else: a stored count that merely equals the new one may be
          // another writer's change, which this write would absorb without anyone being told. Changing a count to
          // itself writes nothing (the refusal below answers the entry as it is).
          ConditionExpression: 'attribute_exists(petId) AND quantity = :changeFrom AND quantity <> :quantity',
          ExpressionAttributeNames: change.names,
          ExpressionAttributeValues: { ':quantity': quantity, ':changeFrom': changeFrom, ...change.values },
          ReturnValues: 'ALL_NEW',
          // The refusal carries the entry, so the 409 can name the stored quantity without a read.
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        });
        if (result.held) return { written: toInventoryItem(result.attributes) };
        if (!result.current) return { missing: true };
        const current = toInventoryItem(result.current);
        return current.quantity === changeFrom ? { written: current } : { storedQuantity: current.quantity };
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
