import { readConfig } from '../config.ts';
import { createStoreClients } from '../dependencies.ts';
import { createReservationExpiry } from '../reservation-dependencies.ts';
import { createExpireReservationsHandler } from '../handlers/expire-reservations-handler.ts';

const config = readConfig();

export const handler = createExpireReservationsHandler(createReservationExpiry(createStoreClients(config), config));
