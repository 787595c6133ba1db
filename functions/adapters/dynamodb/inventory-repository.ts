import { BatchWriteCommand, GetCommand, paginateScan, type DynamoDBDocumentClient, type NumberValue } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreUnavailableError } from '../../domain/errors.ts';
import type { InventoryRepository } from '../../domain/inventory-service.ts';
import type { InventoryItem, PetId, PetStatus } from '../../domain/schemas.ts';
import { callStore, updateIfConditionHolds } from './document-client.ts';

interface StoredInventoryItem {
  petId: NumberValue;
  quantity: NumberValue;
  status: PetStatus;
}

export function toInventoryItem(stored: Record<string, unknown>): InventoryItem {
  const { petId, quantity, status } = stored as unknown as StoredInventoryItem;
  return { petId: BigInt(petId.toString()), quantity: Number(quantity.toString()), status };
}

/** The inventory table's key of one pet: every command on an entry addresses it through this. */
export function inventoryKey(petId: PetId): Record<string, unknown> {
  return { petId };
}

const ITEM_PROJECTION = { ProjectionExpression: 'petId, quantity, #status', ExpressionAttributeNames: { '#status': 'status' } } as const;

/** BatchWriteItem's limit per call. */
const BATCH_WRITE_LIMIT = 25;
/** Calls per batch before unprocessed items count as a store fault; with the backoff below, about 13 s of throttling. */
const BATCH_WRITE_ATTEMPTS = 8;
const BATCH_RETRY_BASE_MS = 50;

export function createInventoryRepository(client: DynamoDBDocumentClient, tableName: string): InventoryRepository {
  async function* entries(): AsyncIterable<InventoryItem> {
    const pages = paginateScan({ client }, { TableName: tableName, ...ITEM_PROJECTION });
    for await (const page of pages) {
      for (const stored of page.Items ?? []) yield toInventoryItem(stored);
    }
  }

  /** One batch, until the store has taken every item: what it leaves unprocessed (throttling) is sent again after a backoff. */
  async function putBatch(batch: readonly InventoryItem[]): Promise<void> {
    let pending = batch.map((item) => ({ PutRequest: { Item: { ...item, ...inventoryKey(item.petId) } } }));
    for (let attempt = 1; pending.length > 0; attempt += 1) {
      if (attempt > BATCH_WRITE_ATTEMPTS) throw new StoreUnavailableError({ cause: new Error(`${pending.length} items still unprocessed after ${BATCH_WRITE_ATTEMPTS} calls`) });
      if (attempt > 1) await sleep(BATCH_RETRY_BASE_MS * 2 ** (attempt - 2));
      const { UnprocessedItems } = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = (UnprocessedItems?.[tableName] ?? []) as typeof pending;
    }
  }

  return {
    listAll: () =>
      callStore(async () => {
        const items: InventoryItem[] = [];
        for await (const item of entries()) items.push(item);
        return items;
      }),

    entries,

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
          ConditionExpression: 'attribute_exists(petId) AND quantity IN (:changeFrom, :quantity)',
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
          new GetCommand({ TableName: tableName, Key: inventoryKey(petId), ...ITEM_PROJECTION, ...(options?.consistent ? { ConsistentRead: true } : {}) }),
        );
        return Item ? toInventoryItem(Item) : undefined;
      }),
  };
}
