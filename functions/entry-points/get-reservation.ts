import { readConfig } from '../config.ts';
import { createReservations, createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { createGetReservationHandler } from '../handlers/reservation-handlers.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createGetReservationHandler({
  reservations: createReservations(store, config),
  limiter: createPlanLimiter(store, config),
});
