import { readConfig } from '../config.ts';
import { createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { createIdempotentWriter } from '../stock-dependencies.ts';
import { createAdjustInventoryHandler } from '../handlers/adjust-inventory-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createAdjustInventoryHandler({
  idempotentWriter: createIdempotentWriter(store, config),
  limiter: createPlanLimiter(store, config),
});
