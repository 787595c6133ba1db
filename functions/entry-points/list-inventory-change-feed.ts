import { createChangeFeedRepository } from '../adapters/dynamodb/change-feed-repository.ts';
import { DEFAULT_HISTORY_RETENTION_DAYS } from '../adapters/dynamodb/tables.ts';
import { readConfig } from '../config.ts';
import { createPlanLimiter, createStoreClients } from '../dependencies.ts';
import { createListInventoryChangeFeedHandler } from '../handlers/list-inventory-change-feed-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createListInventoryChangeFeedHandler({
  changeFeed: createChangeFeedRepository(
    store.client,
    config.changeFeedTable,
    config.historyRetentionDays ?? DEFAULT_HISTORY_RETENTION_DAYS,
  ),
  limiter: createPlanLimiter(store, config),
});
