import { readConfig } from '../config.ts';
import { createIdempotentWriter, createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { createAdjustInventoryHandler } from '../handlers/adjust-inventory-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createAdjustInventoryHandler({
  idempotentWriter: createIdempotentWriter(store, config),
  limiter: createPlanLimiter(store, config),
});
