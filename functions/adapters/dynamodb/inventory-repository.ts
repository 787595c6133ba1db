import { GetCommand, paginateScan, type DynamoDBDocumentClient, type NumberValue } from '@aws-sdk/lib-dynamodb';
import type { InventoryRepository } from '../../domain/inventory-service.ts';
import type { InventoryItem, PetStatus } from '../../domain/schemas.ts';
import { callStore, updateIfConditionHolds } from './document-client.ts';

interface StoredInventoryItem {
  petId: NumberValue;
  quantity: NumberValue;
  status: PetStatus;
}

function toInventoryItem(stored: Record<string, unknown>): InventoryItem {
  const { petId, quantity, status } = stored as unknown as StoredInventoryItem;
  return { petId: BigInt(petId.toString()), quantity: Number(quantity.toString()), status };
}

export function createInventoryRepository(client: DynamoDBDocumentClient, tableName: string): InventoryRepository {
  return {
    listAll: () =>
      callStore(async () => {
        const items: InventoryItem[] = [];
        const pages = paginateScan(
          { client },
          {
            TableName: tableName,
            ProjectionExpression: 'petId, quantity, #status',
            ExpressionAttributeNames: { '#status': 'status' },
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
          Key: { petId },
          UpdateExpression: 'SET quantity = :quantity',
          // The write itself decides existence: no read first, so no race and no upsert.
          ConditionExpression: 'attribute_exists(petId)',
          ExpressionAttributeValues: { ':quantity': quantity },
          ReturnValues: 'ALL_NEW',
        });
        return updated.held ? toInventoryItem(updated.attributes) : undefined;
      }),

    get: (petId) =>
      callStore(async () => {
        const { Item } = await client.send(
          new GetCommand({
            TableName: tableName,
            Key: { petId },
            ProjectionExpression: 'petId, quantity, #status',
            ExpressionAttributeNames: { '#status': 'status' },
          }),
        );
        return Item ? toInventoryItem(Item) : undefined;
      }),
  };
}
