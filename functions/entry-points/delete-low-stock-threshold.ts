import { createLowStockThresholdRepository } from '../adapters/dynamodb/low-stock-threshold-repository.ts';
import { readConfig } from '../config.ts';
import { createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { createDeleteLowStockThresholdHandler } from '../handlers/delete-low-stock-threshold-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createDeleteLowStockThresholdHandler({
  thresholds: createLowStockThresholdRepository(store.client, config.inventoryTable),
  limiter: createPlanLimiter(store, config),
});
