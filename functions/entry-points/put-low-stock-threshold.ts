import { createLowStockThresholdRepository } from '../adapters/dynamodb/low-stock-threshold-repository.ts';
import { readConfig } from '../config.ts';
import { createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { createPutLowStockThresholdHandler } from '../handlers/put-low-stock-threshold-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createPutLowStockThresholdHandler({
  thresholds: createLowStockThresholdRepository(store.client, config.inventoryTable),
  limiter: createPlanLimiter(store, config),
});
