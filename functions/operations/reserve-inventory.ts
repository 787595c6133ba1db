import type { APIGatewayProxyEvent } from 'aws-lambda';
import { idempotentAnswer } from '../http/idempotent-answers.ts';
import { jsonBody } from '../http/json-body.ts';
import { defineOperation } from '../http/operation.ts';
import { ReservationRequest } from '../http/request-body-validators.generated.ts';
import { idempotentWriterPart } from '../parts/idempotent-writer.ts';

/** Where a reservation is read: below the path it was created at, as the client called it (`/v1/inventory/reservations`). */
const reservationLocation = (event: Pick<APIGatewayProxyEvent, 'requestContext'>, reservationId: string) =>
  `${event.requestContext.path.replace(/\/$/, '')}/${reservationId}`;

/** POST /inventory/reservations: holds a cart's stock until its expiresAt, all or none, once per Idempotency-Key. */
export const reserveInventory = defineOperation(
  'reserveInventory',
  {
    parts: { idempotentWriter: idempotentWriterPart },
    body: jsonBody(ReservationRequest),
  },
  async ({ event, body, idempotencyKey, author, deadline }, { idempotentWriter }) => {
    return idempotentAnswer(
      await idempotentWriter.reserve({ ...author, idempotencyKey, request: body, deadline }),
      ({ reservation }) => reservation,
      ({ reservation }) => ({ Location: reservationLocation(event, reservation.reservationId) }),
      201,
    );
  },
);
