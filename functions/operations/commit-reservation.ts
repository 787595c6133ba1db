import { jsonResponse } from '../http/json.ts';
import { defineOperation } from '../http/operation.ts';
import { reservationsPart } from '../parts/reservations.ts';

/** POST /inventory/reservations/{reservationId}/commit: the sale; committing again answers the same and takes nothing more. */
export const commitReservation = defineOperation(
  'commitReservation',
  {
    parts: { reservations: reservationsPart },
  },
  async ({ path, author, deadline }, { reservations }) => {
    return jsonResponse(200, await reservations.commit(path.reservationId, author, deadline));
  },
);
