import { readConfig } from '../config.ts';
import { createExpireReservationsHandler } from '../handlers/expire-reservations-handler.ts';
import { reservationExpiryPart } from '../parts/reservations.ts';
import { createStoreClients } from '../parts/store-clients.ts';

const config = readConfig();

export const handler = createExpireReservationsHandler(reservationExpiryPart({ stores: createStoreClients(config), config }));
