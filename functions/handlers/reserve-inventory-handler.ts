import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { IdempotentWriter } from '../domain/idempotent-writes.ts';
import type { UsageLimiter } from '../domain/usage-limits.ts';
import { changeAuthorFrom } from '../http/caller.ts';
import { httpHandler } from '../http/http-handler.ts';
import { idempotencyKeyFrom, idempotentAnswer } from '../http/idempotent-answers.ts';
import { jsonBody } from '../http/json-body.ts';
import { planLimits } from '../http/plan-limits.ts';
import { ReservationRequest } from '../http/request-body-validators.generated.ts';
import { routeOf } from '../routes.ts';

export interface ReserveHandlerDependencies {
  idempotentWriter: IdempotentWriter;
  limiter: UsageLimiter;
}

/** Where a reservation is read: below the path it was created at, as the client called it (`/v1/inventory/reservations`). */
const reservationLocation = (event: Pick<APIGatewayProxyEvent, 'requestContext'>, reservationId: string) =>
  `${event.requestContext.path.replace(/\/$/, '')}/${reservationId}`;

/** POST /inventory/reservations: holds a cart's stock until its expiresAt, all or none, once per Idempotency-Key. */
export function createReserveInventoryHandler({ idempotentWriter, limiter }: ReserveHandlerDependencies) {
  return httpHandler(
    {
      route: routeOf('reserveInventory'),
      guards: [planLimits(limiter)],
      body: jsonBody(ReservationRequest),
    },
    async (event, _context, deadline) => {
      const idempotencyKey = idempotencyKeyFrom(event);
      const { keyId, requestId } = changeAuthorFrom(event);
      return idempotentAnswer(
        await idempotentWriter.reserve({ keyId, requestId, idempotencyKey, request: event.body, deadline }),
        ({ reservation }) => reservation,
        ({ reservation }) => ({ Location: reservationLocation(event, reservation.reservationId) }),
        201,
      );
    },
  );
}
