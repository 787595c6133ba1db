import { createReservationRepository } from '../adapters/dynamodb/reservation-repository.ts';
import { ReservationExpiry, Reservations } from '../domain/reservations.ts';
import type { Part } from './part.ts';

/**
 * The reservations' parts, apart from the idempotent writer's (idempotent-writer.ts): esbuild
 * cannot leave out a module whose top level runs (a class that extends another, a computed
 * constant), so a bundle holds every module its imports reach, and a reservation's read, commit
 * or release carries no idempotent write.
 */

/** What records reservations' expiries: the sweep, and every writer the stored figures refuse while an expired hold is still counted. */
export const reservationExpiryPart: Part<ReservationExpiry> = ({ stores, config }) =>
  new ReservationExpiry(createReservationRepository(stores.client, config));

/** Reading, committing and releasing reservations. */
export const reservationsPart: Part<Reservations> = ({ stores, config }) => {
  const repository = createReservationRepository(stores.client, config);
  return new Reservations(repository, new ReservationExpiry(repository));
};
