import { createInventoryRepository } from '../adapters/dynamodb/inventory-repository.ts';
import { readConfig } from '../config.ts';
import { createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { createGetInventoryItemHandler } from '../handlers/get-inventory-item-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createGetInventoryItemHandler({
  inventory: createInventoryRepository(store.client, config.inventoryTable),
  limiter: createPlanLimiter(store, config),
});
