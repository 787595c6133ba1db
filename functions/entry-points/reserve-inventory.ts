import { readConfig } from '../config.ts';
import { createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { createIdempotentWriter } from '../stock-dependencies.ts';
import { createReserveInventoryHandler } from '../handlers/reserve-inventory-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createReserveInventoryHandler({
  idempotentWriter: createIdempotentWriter(store, config),
  limiter: createPlanLimiter(store, config),
});
