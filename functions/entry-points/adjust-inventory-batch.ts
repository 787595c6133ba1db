import { readConfig } from '../config.ts';
import { createIdempotentWriter, createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { createAdjustInventoryBatchHandler } from '../handlers/adjust-inventory-batch-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createAdjustInventoryBatchHandler({
  idempotentWriter: createIdempotentWriter(store, config),
  limiter: createPlanLimiter(store, config),
});
