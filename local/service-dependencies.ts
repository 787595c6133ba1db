import { createConfiguredHistoryRepository } from '../functions/adapters/dynamodb/history-repository.ts';
import { createApiKeyRepository } from '../functions/adapters/dynamodb/api-key-repository.ts';
import { createConfiguredChangeFeedRepository } from '../functions/adapters/dynamodb/change-feed-repository.ts';
import { createInventoryRepository } from '../functions/adapters/dynamodb/inventory-repository.ts';
import { createLowStockThresholdRepository } from '../functions/adapters/dynamodb/low-stock-threshold-repository.ts';
import { createUsageCounterRepository } from '../functions/adapters/dynamodb/usage-counter-repository.ts';
import type { ServiceConfig } from '../functions/config.ts';
import { createFailedAuthentications, createPlanLimiter, createStoreClients } from '../functions/dependencies.ts';
import { createReservationExpiry, createReservations } from '../functions/reservation-dependencies.ts';
import { createIdempotentWriter } from '../functions/stock-dependencies.ts';

/**
 * Every function's parts at once, for a host that serves every operation in one process (the
 * local server, the tests, the bench); each Lambda entry point wires only its own.
 */
export function createDependencies(config: ServiceConfig) {
  const store = createStoreClients(config);
  return {
    ...store,
    inventory: createInventoryRepository(store.client, config.inventoryTable),
    thresholds: createLowStockThresholdRepository(store.client, config.inventoryTable),
    history: createConfiguredHistoryRepository(store.client, config),
    changeFeed: createConfiguredChangeFeedRepository(store.client, config),
    idempotentWriter: createIdempotentWriter(store, config),
    reservations: createReservations(store, config),
    reservationExpiry: createReservationExpiry(store, config),
    apiKeys: createApiKeyRepository(store.client, config.apiKeysTable),
    usageCounters: createUsageCounterRepository(store.countingClient, config.usageCountersTable),
    failedAuthentications: createFailedAuthentications(store, config),
    limiter: createPlanLimiter(store, config),
  };
}

export type ServiceDependencies = ReturnType<typeof createDependencies>;
