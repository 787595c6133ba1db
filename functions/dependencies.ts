import { createApiKeyRepository } from './adapters/dynamodb/api-key-repository.ts';
import { createDocumentClient } from './adapters/dynamodb/document-client.ts';
import { createInventoryRepository } from './adapters/dynamodb/inventory-repository.ts';
import { createUsageCounterRepository } from './adapters/dynamodb/usage-counter-repository.ts';
import type { ServiceConfig } from './config.ts';
import { UsageLimiter } from './domain/usage-limits.ts';

/** Wires the adapters once per cold start (or per local server), from configuration. */
export function createDependencies(config: ServiceConfig) {
  const client = createDocumentClient(config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint } : {});
  const usageCounters = createUsageCounterRepository(client, config.usageCountersTable);
  return {
    client,
    inventory: createInventoryRepository(client, config.inventoryTable),
    apiKeys: createApiKeyRepository(client, config.apiKeysTable),
    usageCounters,
    limiter: new UsageLimiter(usageCounters, config.banPolicy),
  };
}

export type ServiceDependencies = ReturnType<typeof createDependencies>;
