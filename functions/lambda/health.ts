import { readConfig } from '../config.ts';
import { createHealthHandler } from '../handlers/health-handler.ts';
import { failedAuthenticationsPart } from '../parts/failed-authentications.ts';
import { inventoryPart } from '../parts/inventory.ts';
import { buildParts } from '../parts/part.ts';
import { createStoreClients } from '../parts/store-clients.ts';

const config = readConfig();

export const handler = createHealthHandler(
  buildParts(
    { inventory: inventoryPart, failedAuthentications: failedAuthenticationsPart },
    { stores: createStoreClients(config), config },
  ),
);
