import { createInventoryRepository } from '../adapters/dynamodb/inventory-repository.ts';
import { readConfig } from '../config.ts';
import { createFailedAuthentications, createStoreClients } from '../dependencies.ts';
import { createHealthHandler } from '../handlers/health-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createHealthHandler({
  inventory: createInventoryRepository(store.client, config.inventoryTable),
  failedAuthentications: createFailedAuthentications(store, config),
});
