import type { ReservationExpiry } from '../domain/reservations.ts';
import { logger } from '../logger.ts';

/**
 * The schedule's function (every minute on AWS): records the expiry of every reservation past its
 * expiresAt. Exactness does not wait for it (reads and writes see a hold gone at its expiresAt);
 * it gives the holds back for good and makes each expiry a change of its own within a minute or so.
 */
export function createExpireReservationsHandler(expiry: Pick<ReservationExpiry, 'sweep'>) {
  return async (): Promise<{ expired: number }> => {
    const expired = await expiry.sweep();
    if (expired > 0) logger.info('reservations expired', { expired });
    return { expired };
  };
}
