import { createInventoryRepository } from '../adapters/dynamodb/inventory-repository.ts';
import { readConfig, readPetsSunset } from '../config.ts';
import { createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { createGetPetByIdHandler } from '../handlers/get-pet-by-id-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createGetPetByIdHandler({
  inventory: createInventoryRepository(store.client, config.inventoryTable),
  limiter: createPlanLimiter(store, config),
  petsSunsetAt: readPetsSunset(),
});
