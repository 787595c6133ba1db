import { readConfig } from '../config.ts';
import { createIdempotentWriter, createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { createReserveInventoryHandler } from '../handlers/reservation-handlers.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createReserveInventoryHandler({
  idempotentWriter: createIdempotentWriter(store, config),
  limiter: createPlanLimiter(store, config),
});
