import { createAdjustmentRepository } from '../adapters/dynamodb/adjustment-repository.ts';
import { readConfig } from '../config.ts';
import { createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { InventoryAdjuster } from '../domain/inventory-adjustments.ts';
import { createAdjustInventoryHandler } from '../handlers/adjust-inventory-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createAdjustInventoryHandler({
  adjuster: new InventoryAdjuster(createAdjustmentRepository(store.client, config)),
  limiter: createPlanLimiter(store, config),
});
