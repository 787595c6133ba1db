import { CALL_BOUNDS, createDocumentClient } from './adapters/dynamodb/document-client.ts';
import { createFailedAuthenticationRepository } from './adapters/dynamodb/failed-authentication-repository.ts';
import { createIdempotentWriteRepository } from './adapters/dynamodb/idempotent-write-repository.ts';
import { createReservationRepository } from './adapters/dynamodb/reservation-repository.ts';
import { createUsageCounterRepository } from './adapters/dynamodb/usage-counter-repository.ts';
import type { ServiceConfig } from './config.ts';
import { FailedAuthenticationLimiter } from './domain/failed-authentications.ts';
import { IdempotentWriter } from './domain/idempotent-writes.ts';
import { ReservationExpiry, Reservations } from './domain/reservations.ts';
import { UsageLimiter } from './domain/usage-limits.ts';
import { logger, SERVICE_METRICS } from './logger.ts';

/**
 * The parts every function is wired from, once per cold start (or per local server). Each entry
 * point builds only what its operation uses, so that its bundle holds only that code: the
 * listing carries no adjustment, the authorizer no inventory repository.
 */

/** The store's two clients: one for the data, and one bounded for counting, which fails open quickly. */
export function createStoreClients(config: Pick<ServiceConfig, 'dynamodbEndpoint'>) {
  const endpoint = config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint } : {};
  const client = createDocumentClient(endpoint);
  const countingClient = createDocumentClient({ ...endpoint, bounds: CALL_BOUNDS.counting });
  return {
    client,
    countingClient,
    close(): void {
      client.destroy();
      countingClient.destroy();
    },
  };
}

export type StoreClients = ReturnType<typeof createStoreClients>;

/** A key's plan limits, counted in the usage counters table; a counting outage is served and counted as a metric. */
export function createPlanLimiter(
  { countingClient }: StoreClients,
  config: Pick<ServiceConfig, 'usageCountersTable' | 'banPolicy'>,
): UsageLimiter {
  const usageCounters = createUsageCounterRepository(countingClient, config.usageCountersTable);
  return new UsageLimiter(usageCounters, config.banPolicy, Date.now, () => logger.metric(SERVICE_METRICS.usageCountingUnavailable, 1));
}

/** The source address's window of failed authentications (the authorizer counts it; uncounted answers report it). */
export function createFailedAuthentications(
  { countingClient }: StoreClients,
  config: Pick<ServiceConfig, 'usageCountersTable' | 'failedAuthenticationsPerMinute'>,
): FailedAuthenticationLimiter {
  return new FailedAuthenticationLimiter(
    createFailedAuthenticationRepository(countingClient, config.usageCountersTable),
    config.failedAuthenticationsPerMinute,
  );
}

type StockTables = Pick<ServiceConfig, 'inventoryTable' | 'idempotencyRecordsTable' | 'reservationsTable'>;

/** What records reservations' expiries: the sweep, and every writer the stored figures refuse while an expired hold is still counted. */
export function createReservationExpiry({ client }: Pick<StoreClients, 'client'>, config: StockTables): ReservationExpiry {
  return new ReservationExpiry(createReservationRepository(client, config));
}

/** Writes made once per Idempotency-Key (adjustments, keyed updates, reservations), recording expiries the stored figures still count. */
export function createIdempotentWriter(store: Pick<StoreClients, 'client'>, config: StockTables): IdempotentWriter {
  return new IdempotentWriter(
    createIdempotentWriteRepository(store.client, config),
    Date.now,
    undefined,
    createReservationExpiry(store, config),
  );
}

/** Reading, committing and releasing reservations. */
export function createReservations(store: Pick<StoreClients, 'client'>, config: StockTables): Reservations {
  return new Reservations(createReservationRepository(store.client, config), createReservationExpiry(store, config));
}
