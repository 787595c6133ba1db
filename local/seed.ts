import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { createInventoryRepository, inventoryHasEntries } from '../functions/adapters/dynamodb/inventory-repository.ts';
import { TOOL_KEY_IDS, toolAttribution, type ChangeAttribution } from '../functions/domain/change-attribution.ts';
import { InventoryItem } from '../functions/domain/schemas.ts';

const SeedFile = z.array(InventoryItem);

/**
 * Reads a JSON array of InventoryItem. petIds are taken from their source text, so ids
 * above 2^53 keep every digit (JSON.parse alone would round them to the nearest double).
 */
export function parseSeed(text: string): InventoryItem[] {
  const raw: unknown = JSON.parse(text, (key, value: unknown, context?: { source?: string }) =>
    key === 'petId' && typeof value === 'number' && context?.source !== undefined && /^-?\d+$/.test(context.source)
      ? BigInt(context.source)
      : value,
  );
  const parsed = SeedFile.safeParse(raw);
  if (!parsed.success) throw new Error(`Seed file is not a JSON array of InventoryItem: ${z.prettifyError(parsed.error)}`);
  const ids = new Set<bigint>();
  for (const item of parsed.data) {
    if (ids.has(item.petId)) throw new Error(`Seed file lists petId ${item.petId} more than once.`);
    ids.add(item.petId);
  }
  return parsed.data;
}

export async function readSeedFile(path: string): Promise<InventoryItem[]> {
  return parseSeed(await readFile(path, 'utf8'));
}

export const DEMO_INVENTORY: readonly InventoryItem[] = [
  { petId: 1n, quantity: 12, status: 'available' },
  { petId: 2n, quantity: 3, status: 'available' },
  { petId: 3n, quantity: 0, status: 'sold' },
  { petId: 4n, quantity: 1, status: 'pending' },
  { petId: 5n, quantity: 7, status: 'available' },
  // Above 2^53: shows that ids keep every digit on the way through.
  { petId: 9_007_199_254_740_993n, quantity: 2, status: 'available' },
];

/** Overlapping batches keep DynamoDB Local's threads busy while the client waits on each answer. */
const PARALLEL_BATCH_WRITERS = 8;

/** Writes the entries under their keys, several batches at a time, each a change recorded as the seed's by default. */
export async function writeInventory(
  client: DynamoDBDocumentClient,
  tableName: string,
  items: readonly InventoryItem[],
  attribution: ChangeAttribution = toolAttribution('seed', TOOL_KEY_IDS.seed),
): Promise<void> {
  const repository = createInventoryRepository(client, tableName);
  const share = Math.ceil(items.length / PARALLEL_BATCH_WRITERS);
  await Promise.all(
    Array.from({ length: PARALLEL_BATCH_WRITERS }, (_, writer) =>
      repository.putMany(items.slice(writer * share, (writer + 1) * share), attribution),
    ),
  );
}

/** Loads the seed only into an empty inventory, so a restart never overwrites data. Returns how many were written. */
export async function seedIfEmpty(client: DynamoDBDocumentClient, tableName: string, items: readonly InventoryItem[]): Promise<number> {
  if (await inventoryHasEntries(client, tableName)) return 0;
  await writeInventory(client, tableName, items);
  return items.length;
}
