import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Writes that meet other transactions on the same items (a hot pet, a reservation settled by two
 * requests at once) are tried again, a round at a time, each round after a full-jitter backoff:
 * writers that collided spread out instead of meeting again in step. A request tries at most
 * MAX_ROUNDS rounds, and starts none once its deadline has passed: what it wrote by then is what
 * it answers, and a round never runs on after the answer has gone.
 */

/** When a request must start no more rounds: read as each round would start (http-handler.ts makes a request's). */
export interface Deadline {
  readonly passed: boolean;
}

/** Rounds of one request's write before it gives up. */
export const MAX_ROUNDS = 20;
const BACKOFF_CAP_MS = 200;

/** Full jitter, growing with the rounds up to BACKOFF_CAP_MS. */
export function backoff(round: number): Promise<void> {
  return sleep(Math.random() * Math.min(BACKOFF_CAP_MS, 10 * 2 ** round));
}

/** Whether a request may start round `round` of a contended write: the first always, the next ones within MAX_ROUNDS and its deadline. */
export function mayStartRound(round: number, deadline: Deadline | undefined): boolean {
  return round === 0 || (round < MAX_ROUNDS && !deadline?.passed);
}
