import type { APIGatewayProxyEvent } from 'aws-lambda';
import { reservationNotFound, type Reservations } from '../domain/reservations.ts';
import type { UsageLimiter } from '../domain/usage-limits.ts';
import { changeAuthorFrom } from '../http/caller.ts';
import { httpHandler } from '../http/http-handler.ts';
import { jsonResponse } from '../http/json.ts';
import { planLimitedRead, planLimits } from '../http/plan-limits.ts';
import { routeOf } from '../routes.ts';

/**
 * The operations on one reservation: GET, POST …/commit and DELETE of
 * /inventory/reservations/{reservationId}. Each is a function of its own on AWS; none reads a body,
 * so none bundles body parsing (the reserving, which does, is reserve-inventory-handler.ts).
 */

export interface ReservationHandlerDependencies {
  reservations: Reservations;
  limiter: UsageLimiter;
}

/** Reservation ids are UUIDs this service made: any other text names no reservation. */
const RESERVATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function reservationIdFromPath(event: Pick<APIGatewayProxyEvent, 'pathParameters'>): string {
  const text = event.pathParameters?.reservationId ?? '';
  if (!RESERVATION_ID.test(text)) throw reservationNotFound(text.length > 64 ? `${text.slice(0, 64)}…` : text);
  return text;
}

/** GET /inventory/reservations/{reservationId}: the reservation, expired from its expiresAt on; read while the request is counted. */
export function createGetReservationHandler({ reservations, limiter }: ReservationHandlerDependencies) {
  const counted = planLimitedRead(limiter, (event) => reservations.get(reservationIdFromPath(event)));
  return httpHandler({ route: routeOf('getReservation'), guards: [counted.guard] }, async (event) =>
    jsonResponse(200, await counted.result(event)),
  );
}

/** POST /inventory/reservations/{reservationId}/commit: the sale; committing again answers the same and takes nothing more. */
export function createCommitReservationHandler({ reservations, limiter }: ReservationHandlerDependencies) {
  return httpHandler({ route: routeOf('commitReservation'), guards: [planLimits(limiter)] }, async (event, _context, deadline) =>
    jsonResponse(200, await reservations.commit(reservationIdFromPath(event), changeAuthorFrom(event), deadline)),
  );
}

/** DELETE /inventory/reservations/{reservationId}: gives the holds back; releasing again answers the same. */
export function createReleaseReservationHandler({ reservations, limiter }: ReservationHandlerDependencies) {
  return httpHandler({ route: routeOf('releaseReservation'), guards: [planLimits(limiter)] }, async (event, _context, deadline) =>
    jsonResponse(200, await reservations.release(reservationIdFromPath(event), changeAuthorFrom(event), deadline)),
  );
}
