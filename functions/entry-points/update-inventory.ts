import { createAdjustmentRepository } from '../adapters/dynamodb/adjustment-repository.ts';
import { createInventoryRepository } from '../adapters/dynamodb/inventory-repository.ts';
import { readConfig } from '../config.ts';
import { createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { InventoryAdjuster } from '../domain/inventory-adjustments.ts';
import { createUpdateInventoryHandler } from '../handlers/update-inventory-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createUpdateInventoryHandler({
  inventory: createInventoryRepository(store.client, config.inventoryTable),
  adjuster: new InventoryAdjuster(createAdjustmentRepository(store.client, config)),
  limiter: createPlanLimiter(store, config),
});
