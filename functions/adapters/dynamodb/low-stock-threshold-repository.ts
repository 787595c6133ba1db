import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LowStockThresholdRepository } from '../../domain/low-stock.ts';
import type { PetId } from '../../domain/schemas.ts';
import { callStore, updateIfConditionHolds } from './document-client.ts';
import { inventoryKey, LOW_STOCK_THRESHOLD_ATTRIBUTE } from './stored-inventory-item.ts';

/**
 * The thresholds, on the inventory table's entries: one conditional UpdateItem sets or removes
 * one (the entry must exist), touching neither the version nor lastChange, so the change stream's
 * consumer sees a write that made no change (no history entry, no feed entry, no event), and the
 * next stock change's images carry the threshold.
 */
export function createLowStockThresholdRepository(client: DynamoDBDocumentClient, tableName: string): LowStockThresholdRepository {
  /** One UpdateItem of the entry's threshold alone; false when the pet has no entry. */
  const updateThreshold = (petId: PetId, UpdateExpression: string, values?: Record<string, number>) =>
    callStore(async () => {
      const { held } = await updateIfConditionHolds(client, {
        TableName: tableName,
        Key: inventoryKey(petId),
        UpdateExpression,
        ConditionExpression: 'attribute_exists(petId)',
        ExpressionAttributeNames: { '#threshold': LOW_STOCK_THRESHOLD_ATTRIBUTE },
        ...(values ? { ExpressionAttributeValues: values } : {}),
      });
      return held;
    });
  return {
    set: (petId, threshold) => updateThreshold(petId, 'SET #threshold = :threshold', { ':threshold': threshold }),
    remove: (petId) => updateThreshold(petId, 'REMOVE #threshold'),
    get: (petId) =>
      callStore(async () => {
        const { Item } = await client.send(
          new GetCommand({
            TableName: tableName,
            Key: inventoryKey(petId),
            ProjectionExpression: 'petId, #threshold',
            ExpressionAttributeNames: { '#threshold': LOW_STOCK_THRESHOLD_ATTRIBUTE },
            ConsistentRead: true,
          }),
        );
        if (!Item) return undefined;
        const stored = Item[LOW_STOCK_THRESHOLD_ATTRIBUTE] as { toString(): string } | undefined;
        return { threshold: stored === undefined ? undefined : Number(stored.toString()) };
      }),
  };
}
