import { readConfig } from '../config.ts';
import { createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { createIdempotentWriter } from '../stock-dependencies.ts';
import { createAdjustInventoryBatchHandler } from '../handlers/adjust-inventory-batch-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createAdjustInventoryBatchHandler({
  idempotentWriter: createIdempotentWriter(store, config),
  limiter: createPlanLimiter(store, config),
});
