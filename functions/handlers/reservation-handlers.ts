import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { IdempotentWriter } from '../domain/idempotent-writes.ts';
import { reservationNotFound, type Reservations } from '../domain/reservations.ts';
import type { UsageLimiter } from '../domain/usage-limits.ts';
import { changeAuthorFrom } from '../http/caller.ts';
import { httpHandler } from '../http/http-handler.ts';
import { idempotencyKeyFrom, idempotentAnswer } from '../http/idempotent-answers.ts';
import { jsonBody, MAX_BATCH_BODY_BYTES } from '../http/json-body.ts';
import { jsonResponse } from '../http/json.ts';
import { lifecycleHeaders, operationHeaders } from '../http/lifecycle-headers.ts';
import { planLimits } from '../http/plan-limits.ts';
import { ReservationRequest } from '../http/request-body-validators.generated.ts';
import { type OperationId, routeOf } from '../routes.ts';

/**
 * The reservations' operations: POST /inventory/reservations (under an Idempotency-Key), and GET,
 * POST …/commit and DELETE of /inventory/reservations/{reservationId}. Each is a function of its own on AWS.
 */

export interface ReserveHandlerDependencies {
  idempotentWriter: IdempotentWriter;
  limiter: UsageLimiter;
}

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

/** Where a reservation is read: below the path it was created at, as the client called it (`/v1/inventory/reservations`). */
const reservationLocation = (event: Pick<APIGatewayProxyEvent, 'requestContext'>, reservationId: string) =>
  `${event.requestContext.path.replace(/\/$/, '')}/${reservationId}`;

/** The lifecycle headers (X-API-Stability) the registry states for the operation. */
const lifecycle = (operationId: OperationId) => operationHeaders(lifecycleHeaders(routeOf(operationId)));

/** POST /inventory/reservations: holds a cart's stock until its expiresAt, all or none, once per Idempotency-Key. */
export function createReserveInventoryHandler({ idempotentWriter, limiter }: ReserveHandlerDependencies) {
  return httpHandler(
    { guards: [planLimits(limiter), lifecycle('reserveInventory')], body: jsonBody(ReservationRequest, MAX_BATCH_BODY_BYTES) },
    async (event) => {
      const idempotencyKey = idempotencyKeyFrom(event);
      const { keyId, requestId } = changeAuthorFrom(event);
      return idempotentAnswer(
        await idempotentWriter.reserve({ keyId, requestId, idempotencyKey, request: event.body }),
        ({ reservation }) => reservation,
        ({ reservation }) => ({ Location: reservationLocation(event, reservation.reservationId) }),
        201,
      );
    },
  );
}

/** GET /inventory/reservations/{reservationId}: the reservation, expired from its expiresAt on. */
export function createGetReservationHandler({ reservations, limiter }: ReservationHandlerDependencies) {
  return httpHandler({ guards: [planLimits(limiter), lifecycle('getReservation')] }, async (event) =>
    jsonResponse(200, await reservations.get(reservationIdFromPath(event))),
  );
}

/** POST /inventory/reservations/{reservationId}/commit: the sale; committing again answers the same and takes nothing more. */
export function createCommitReservationHandler({ reservations, limiter }: ReservationHandlerDependencies) {
  return httpHandler({ guards: [planLimits(limiter), lifecycle('commitReservation')] }, async (event) =>
    jsonResponse(200, await reservations.commit(reservationIdFromPath(event), changeAuthorFrom(event))),
  );
}

/** DELETE /inventory/reservations/{reservationId}: gives the holds back; releasing again answers the same. */
export function createReleaseReservationHandler({ reservations, limiter }: ReservationHandlerDependencies) {
  return httpHandler({ guards: [planLimits(limiter), lifecycle('releaseReservation')] }, async (event) =>
    jsonResponse(200, await reservations.release(reservationIdFromPath(event), changeAuthorFrom(event))),
  );
}
