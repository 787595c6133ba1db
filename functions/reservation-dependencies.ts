import { createReservationRepository } from './adapters/dynamodb/reservation-repository.ts';
import type { ServiceConfig } from './config.ts';
import type { StoreClients } from './dependencies.ts';
import { ReservationExpiry, Reservations } from './domain/reservations.ts';

/**
 * The reservations' parts, apart from dependencies.ts (which every entry point imports) and from
 * the idempotent writer's (stock-dependencies.ts): esbuild cannot leave out a module whose top
 * level runs (a class that extends another, a computed constant), so a bundle holds every module
 * its entry point's imports reach, and a reservation's read, commit or release carries no
 * idempotent write.
 */

export type StockTables = Pick<ServiceConfig, 'inventoryTable' | 'idempotencyRecordsTable' | 'reservationsTable'>;

/** What records reservations' expiries: the sweep, and every writer the stored figures refuse while an expired hold is still counted. */
export function createReservationExpiry({ client }: Pick<StoreClients, 'client'>, config: StockTables): ReservationExpiry {
  return new ReservationExpiry(createReservationRepository(client, config));
}

/** Reading, committing and releasing reservations. */
export function createReservations({ client }: Pick<StoreClients, 'client'>, config: StockTables): Reservations {
  const repository = createReservationRepository(client, config);
  return new Reservations(repository, new ReservationExpiry(repository));
}
