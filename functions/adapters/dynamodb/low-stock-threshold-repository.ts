import { GetCommand, paginateQuery, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LowStockThresholdRepository } from '../../domain/low-stock.ts';
import type { LowStockThreshold, PetId } from '../../domain/schemas.ts';
import { callStore, inDomainTerms, updateIfConditionHolds } from './document-client.ts';
import { INVENTORY_PAGE_SIZE, INVENTORY_SHARDS, inventoryKey, LOW_STOCK_THRESHOLD_ATTRIBUTE } from './stored-inventory-item.ts';
import { inventoryTable } from './tables.ts';

/**
 * The thresholds, on the inventory table's entries: one conditional UpdateItem sets or removes
 * one (the entry must exist), touching neither the version nor lastChange, so the change stream's
 * consumer sees a write that made no change (no history record, no feed record, no event), and the
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
  /** One shard's thresholds: a Query of its partition that carries only the entries with one, and of them only petId and the threshold. */
  async function* shardThresholds(shard: number): AsyncGenerator<LowStockThreshold[]> {
    const pages = paginateQuery(
      { client, pageSize: INVENTORY_PAGE_SIZE },
      {
        TableName: tableName,
        KeyConditionExpression: '#shard = :shard',
        FilterExpression: 'attribute_exists(#threshold)',
        ProjectionExpression: 'petId, #threshold',
        ExpressionAttributeNames: { '#shard': inventoryTable.partitionKey.name, '#threshold': LOW_STOCK_THRESHOLD_ATTRIBUTE },
        ExpressionAttributeValues: { ':shard': shard },
        ConsistentRead: true,
      },
    );
    try {
      for await (const page of pages)
        yield (page.Items ?? []).map((item) => ({
          petId: BigInt(String(item.petId)),
          threshold: Number(String(item[LOW_STOCK_THRESHOLD_ATTRIBUTE])),
        }));
    } catch (error) {
      throw inDomainTerms(error);
    }
  }
  return {
    async *listAll() {
      for (const shard of INVENTORY_SHARDS) yield* shardThresholds(shard);
    },
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
