import { createInventoryRepository } from '../adapters/dynamodb/inventory-repository.ts';
import { readConfig } from '../config.ts';
import { createIdempotentWriter, createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { createUpdateInventoryHandler } from '../handlers/update-inventory-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createUpdateInventoryHandler({
  inventory: createInventoryRepository(store.client, config.inventoryTable),
  idempotentWriter: createIdempotentWriter(store, config),
  limiter: createPlanLimiter(store, config),
});
