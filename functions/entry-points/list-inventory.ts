import { createInventoryRepository } from '../adapters/dynamodb/inventory-repository.ts';
import { readConfig } from '../config.ts';
import { createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { createListInventoryHandler } from '../handlers/list-inventory-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createListInventoryHandler({
  inventory: createInventoryRepository(store.client, config.inventoryTable),
  limiter: createPlanLimiter(store, config),
});
