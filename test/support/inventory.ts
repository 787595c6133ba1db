import { inventoryKey } from '../../functions/adapters/dynamodb/inventory-repository.ts';
import { listInventory, type InventoryRepository } from '../../functions/domain/inventory-service.ts';
import type { InventoryItem } from '../../functions/domain/schemas.ts';

/** The whole listing in one array: what the service streams, gathered for a comparison. */
export async function allEntries(inventory: Pick<InventoryRepository, 'listAll'>): Promise<InventoryItem[]> {
  const entries: InventoryItem[] = [];
  for await (const batch of listInventory(inventory as InventoryRepository)) entries.push(...batch);
  return entries;
}

/** `count` petIds from `from` upwards that all fall in `shard`: to fill one partition past its page size. */
export function idsInShard(shard: number, count: number, from = 1n): bigint[] {
  const ids: bigint[] = [];
  for (let petId = from; ids.length < count; petId += 1n) if (inventoryKey(petId).shard === shard) ids.push(petId);
  return ids;
}

/** Listings are streamed as failing sources: a listAll whose first read fails with `error`. */
export function failingListing(error: unknown): () => AsyncIterable<InventoryItem[]> {
  return async function* failing() {
    yield* [];
    throw error;
  };
}
