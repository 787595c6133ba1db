import { BatchGetCommand, GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreUnavailableError } from '../../domain/errors.ts';
import type { PetId } from '../../domain/schemas.ts';
import type { VersionedItem } from '../../domain/stock-writes.ts';
import { inventoryKey, toVersionedItem } from './stored-inventory-item.ts';

/** Calls of one BatchGetItem before keys it leaves unprocessed (throttling) count as a store fault. */
const BATCH_GET_ATTEMPTS = 6;
const BATCH_GET_RETRY_BASE_MS = 50;

/**
 * The pets' entries after writes to them (an adjustment's, a batch's, a commit's answer), read
 * strongly consistent, in the order of petIds (undefined: no entry): one GetItem for one pet, one
 * BatchGetItem for up to 100.
 */
export async function readEntries(
  client: DynamoDBDocumentClient,
  inventoryTable: string,
  petIds: readonly PetId[],
): Promise<(VersionedItem | undefined)[]> {
  if (petIds.length === 1) {
    const { Item } = await client.send(new GetCommand({ TableName: inventoryTable, Key: inventoryKey(petIds[0]!), ConsistentRead: true }));
    return [Item ? toVersionedItem(Item) : undefined];
  }
  const found = new Map<PetId, VersionedItem>();
  let keys: Record<string, unknown>[] = petIds.map((petId) => ({ ...inventoryKey(petId) }));
  for (let attempt = 1; keys.length > 0; attempt += 1) {
    if (attempt > BATCH_GET_ATTEMPTS)
      throw new StoreUnavailableError({ cause: new Error(`${keys.length} entries still unread after ${BATCH_GET_ATTEMPTS} calls`) });
    if (attempt > 1) await sleep(BATCH_GET_RETRY_BASE_MS * 2 ** (attempt - 2));
    const { Responses, UnprocessedKeys } = await client.send(
      new BatchGetCommand({ RequestItems: { [inventoryTable]: { Keys: keys, ConsistentRead: true } } }),
    );
    for (const stored of Responses?.[inventoryTable] ?? []) {
      const entry = toVersionedItem(stored);
      found.set(entry.item.petId, entry);
    }
    keys = UnprocessedKeys?.[inventoryTable]?.Keys ?? [];
  }
  return petIds.map((petId) => found.get(petId));
}
