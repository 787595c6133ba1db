import { jsonResponse } from '../http/json.ts';
import { defineOperation } from '../http/operation.ts';
import { reservationsPart } from '../parts/reservations.ts';

/** GET /inventory/reservations/{reservationId}: the reservation, expired from its expiresAt on; read while the request is counted. */
export const getReservation = defineOperation(
  'getReservation',
  {
    parts: { reservations: reservationsPart },
  },
  async ({ path }, { reservations }) => {
    return jsonResponse(200, await reservations.get(path.reservationId));
  },
);
