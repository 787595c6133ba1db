import { createIdempotentWriteRepository } from '../adapters/dynamodb/idempotent-write-repository.ts';
import { readConfig } from '../config.ts';
import { createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { IdempotentWriter } from '../domain/idempotent-writes.ts';
import { createAdjustInventoryHandler } from '../handlers/adjust-inventory-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createAdjustInventoryHandler({
  idempotentWriter: new IdempotentWriter(createIdempotentWriteRepository(store.client, config)),
  limiter: createPlanLimiter(store, config),
});
