import { createAdjustmentRepository } from './adapters/dynamodb/adjustment-repository.ts';
import { createApiKeyRepository } from './adapters/dynamodb/api-key-repository.ts';
import { createChangeFeedRepository } from './adapters/dynamodb/change-feed-repository.ts';
import { CALL_BOUNDS, createDocumentClient } from './adapters/dynamodb/document-client.ts';
import { DEFAULT_HISTORY_RETENTION_DAYS } from './adapters/dynamodb/tables.ts';
import { createHistoryRepository } from './adapters/dynamodb/history-repository.ts';
import { createInventoryRepository } from './adapters/dynamodb/inventory-repository.ts';
import { createFailedAuthenticationRepository, createUsageCounterRepository } from './adapters/dynamodb/usage-counter-repository.ts';
import type { ServiceConfig } from './config.ts';
import { FailedAuthenticationLimiter } from './domain/failed-authentications.ts';
import { InventoryAdjuster } from './domain/inventory-adjustments.ts';
import { UsageLimiter } from './domain/usage-limits.ts';
import { logger, SERVICE_METRICS } from './logger.ts';

/** Wires the adapters once per cold start (or per local server), from configuration. */
export function createDependencies(config: ServiceConfig) {
  const endpoint = config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint } : {};
  const client = createDocumentClient(endpoint);
  const countingClient = createDocumentClient({ ...endpoint, bounds: CALL_BOUNDS.counting });
  const usageCounters = createUsageCounterRepository(countingClient, config.usageCountersTable);
  return {
    client,
    countingClient,
    inventory: createInventoryRepository(client, config.inventoryTable),
    history: createHistoryRepository(client, config.historyTable, config.historyRetentionDays ?? DEFAULT_HISTORY_RETENTION_DAYS),
    changeFeed: createChangeFeedRepository(client, config.changeFeedTable, config.historyRetentionDays ?? DEFAULT_HISTORY_RETENTION_DAYS),
    adjuster: new InventoryAdjuster(createAdjustmentRepository(client, config)),
    apiKeys: createApiKeyRepository(client, config.apiKeysTable),
    usageCounters,
    failedAuthentications: new FailedAuthenticationLimiter(
      createFailedAuthenticationRepository(countingClient, config.usageCountersTable),
      config.failedAuthenticationsPerMinute,
    ),
    limiter: new UsageLimiter(usageCounters, config.banPolicy, Date.now, () => logger.metric(SERVICE_METRICS.usageCountingUnavailable, 1)),
    close(): void {
      client.destroy();
      countingClient.destroy();
    },
  };
}

export type ServiceDependencies = ReturnType<typeof createDependencies>;
