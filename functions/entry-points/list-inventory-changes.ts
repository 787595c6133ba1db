import { createHistoryRepository } from '../adapters/dynamodb/history-repository.ts';
import { createInventoryRepository } from '../adapters/dynamodb/inventory-repository.ts';
import { DEFAULT_HISTORY_RETENTION_DAYS } from '../adapters/dynamodb/tables.ts';
import { readConfig } from '../config.ts';
import { createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { createListInventoryChangesHandler } from '../handlers/list-inventory-changes-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createListInventoryChangesHandler({
  inventory: createInventoryRepository(store.client, config.inventoryTable),
  history: createHistoryRepository(store.client, config.historyTable, config.historyRetentionDays ?? DEFAULT_HISTORY_RETENTION_DAYS),
  limiter: createPlanLimiter(store, config),
});
