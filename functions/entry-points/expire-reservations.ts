import { readConfig } from '../config.ts';
import { createReservationExpiry, createStoreClients } from '../dependencies.ts';
import { createExpireReservationsHandler } from '../handlers/expire-reservations-handler.ts';

const config = readConfig();

export const handler = createExpireReservationsHandler(createReservationExpiry(createStoreClients(config), config));
