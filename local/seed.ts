import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createInventoryRepository, inventoryHasEntries } from '../functions/adapters/dynamodb/inventory-repository.ts';
import { TOOL_KEY_IDS, toolAttribution, type ChangeAttribution } from '../functions/domain/change-attribution.ts';
import type { InventoryItem } from '../functions/domain/schemas.ts';
import { readInventoryFile } from '../tools/inventory-tool/inventory-file.ts';

/** Where `npm start` takes its seed from instead of the demo inventory. */
export const SEED_FILE_VARIABLE = 'SEED_FILE';

/**
 * The seed file is an inventory file, as `npm run inventory -- import` reads it (same reader,
 * same checks); what is wrong with it is named with the variable that named the file.
 */
export async function readSeedFile(path: string): Promise<InventoryItem[]> {
  try {
    return await readInventoryFile(path);
  } catch (error) {
    throw new Error(`${SEED_FILE_VARIABLE}=${path} cannot be used: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
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

/** Writes the entries under their keys, several at a time (see putMany), each a change recorded as the seed's by default. */
export async function writeInventory(
  client: DynamoDBDocumentClient,
  tableName: string,
  items: readonly InventoryItem[],
  attribution: ChangeAttribution = toolAttribution('seed', TOOL_KEY_IDS.seed),
): Promise<void> {
  await createInventoryRepository(client, tableName).putMany(items, attribution);
}

/** Loads the seed only into an empty inventory, so a restart never overwrites data. Returns how many were written. */
export async function seedIfEmpty(client: DynamoDBDocumentClient, tableName: string, items: readonly InventoryItem[]): Promise<number> {
  if (await inventoryHasEntries(client, tableName)) return 0;
  await writeInventory(client, tableName, items);
  return items.length;
}
