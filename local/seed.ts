import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createInventoryRepository, inventoryHasEntries } from '../functions/adapters/dynamodb/inventory-repository.ts';
import { createLowStockThresholdRepository } from '../functions/adapters/dynamodb/low-stock-threshold-repository.ts';
import { TOOL_KEY_IDS, toolAttribution, type ChangeAttribution } from '../functions/domain/change-attribution.ts';
import type { InventoryCount } from '../functions/domain/schemas.ts';
import { readInventoryFile, type ImportedEntry } from './inventory-file.ts';

/** Where `npm start` takes its seed from instead of the demo inventory. */
export const SEED_FILE_VARIABLE = 'SEED_FILE';

/**
 * The seed file is an inventory file, as `npm run inventory -- import` reads it (same reader,
 * same checks); what is wrong with it is named with the variable that named the file.
 */
export async function readSeedFile(path: string): Promise<ImportedEntry[]> {
  try {
    return await readInventoryFile(path);
  } catch (error) {
    throw new Error(`${SEED_FILE_VARIABLE}=${path} cannot be used: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

/** Writes the entries under their keys, several at a time (see putMany), each a change recorded as the seed's by default. */
export async function writeInventory(
  client: DynamoDBDocumentClient,
  tableName: string,
  items: readonly InventoryCount[],
  attribution: ChangeAttribution = toolAttribution('seed', TOOL_KEY_IDS.seed),
): Promise<void> {
  await createInventoryRepository(client, tableName).putMany(items, attribution);
}

/**
 * Loads the seed only into an empty inventory, so a restart never overwrites data, with the
 * low-stock thresholds its entries carry, as an import sets them. Returns how many entries were written.
 */
export async function seedIfEmpty(client: DynamoDBDocumentClient, tableName: string, items: readonly ImportedEntry[]): Promise<number> {
  if (await inventoryHasEntries(client, tableName)) return 0;
  await writeInventory(client, tableName, items);
  const thresholds = createLowStockThresholdRepository(client, tableName);
  for (const { petId, lowStockThreshold } of items) if (lowStockThreshold !== undefined) await thresholds.set(petId, lowStockThreshold);
  return items.length;
}
