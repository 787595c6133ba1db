import { GetCommand, paginateScan, type DynamoDBDocumentClient, type NumberValue } from '@aws-sdk/lib-dynamodb';
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

export function createInventoryRepository(client: DynamoDBDocumentClient, tableName: string): InventoryRepository {
  return {
    listAll: () =>
      callStore(async () => {
        const items: InventoryItem[] = [];
        const pages = paginateScan(
          { client },
          {
            TableName: tableName,
            ...ITEM_PROJECTION,
          },
        );
        for await (const page of pages) {
          for (const stored of page.Items ?? []) items.push(toInventoryItem(stored));
        }
        return items;
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
