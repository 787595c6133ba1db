import { createIdempotentWriteRepository } from '../adapters/dynamodb/idempotent-write-repository.ts';
import { createInventoryRepository } from '../adapters/dynamodb/inventory-repository.ts';
import { readConfig } from '../config.ts';
import { createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { IdempotentWriter } from '../domain/idempotent-writes.ts';
import { createUpdateInventoryHandler } from '../handlers/update-inventory-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createUpdateInventoryHandler({
  inventory: createInventoryRepository(store.client, config.inventoryTable),
  idempotentWriter: new IdempotentWriter(createIdempotentWriteRepository(store.client, config)),
  limiter: createPlanLimiter(store, config),
});
