import { ApiError, ErrorCode } from './errors.ts';

/**
 * A reservation's id: a UUID this service made when it took the reservation. Apart from
 * reservations.ts, so that what reads an id from a path (http/path-parameters.ts) bundles no
 * reservation logic.
 */
export const newReservationId = (): string => crypto.randomUUID();

const RESERVATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Any other text than such a UUID names no reservation. */
export const isReservationId = (text: string): boolean => RESERVATION_ID.test(text);

export function reservationNotFound(reservationId: string): ApiError {
  return new ApiError(ErrorCode.reservationNotFound, `No reservation ${reservationId} exists.`);
}
