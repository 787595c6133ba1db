import { jsonResponse } from '../http/json.ts';
import { defineOperation } from '../http/operation.ts';
import { reservationsPart } from '../parts/reservations.ts';

/** DELETE /inventory/reservations/{reservationId}: gives the holds back; releasing again answers the same. */
export const releaseReservation = defineOperation(
  'releaseReservation',
  {
    parts: { reservations: reservationsPart },
  },
  async ({ path, author, deadline }, { reservations }) => {
    return jsonResponse(200, await reservations.release(path.reservationId, author, deadline));
  },
);
