import { createIdempotentWriteRepository } from './adapters/dynamodb/idempotent-write-repository.ts';
import type { StoreClients } from './dependencies.ts';
import { IdempotentWriter } from './domain/idempotent-writes.ts';
import { createReservationExpiry, type StockTables } from './reservation-dependencies.ts';

/**
 * The idempotent writer, apart from dependencies.ts, which every entry point imports: esbuild
 * cannot leave out a module whose top level runs (a class that extends another, a computed
 * constant), so had it stayed there every bundle (the authorizer's, the reads') would carry it.
 */

/** Writes made once per Idempotency-Key (adjustments, keyed updates, reservations), recording expiries the stored figures still count. */
export function createIdempotentWriter(store: Pick<StoreClients, 'client'>, config: StockTables): IdempotentWriter {
  return new IdempotentWriter(
    createIdempotentWriteRepository(store.client, config),
    Date.now,
    undefined,
    createReservationExpiry(store, config),
  );
}
