import type { ReservationExpiry } from '../functions/domain/reservations.ts';

/** How often `npm start` sweeps: AWS's schedule runs every minute; locally a few seconds keep the history close to the clock. */
export const LOCAL_SWEEP_INTERVAL_MS = 5_000;

export interface ReservationSweep {
  close(): Promise<void>;
}

/**
 * What the schedule does on AWS, for `npm start`: the same sweep (ReservationExpiry.sweep) on a
 * timer, one run at a time. A failed run is reported and the next one tries again: an expiry
 * not recorded yet still holds nothing (reads and writes see it gone at its expiresAt).
 */
export function startReservationSweep(
  expiry: Pick<ReservationExpiry, 'sweep'>,
  intervalMs: number,
  onError: (error: unknown) => void,
): ReservationSweep {
  let running: Promise<void> = Promise.resolve();
  let closed = false;
  const timer = setInterval(() => {
    running = running.then(async () => {
      if (closed) return;
      try {
        await expiry.sweep();
      } catch (error) {
        onError(error);
      }
    });
  }, intervalMs);
  timer.unref();
  return {
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
