import { ErrorCode, StoreUnavailableError } from './errors.ts';
import { DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE } from './failed-authentications.ts';
import type { InventoryRepository } from './inventory-service.ts';
import { MAX_INT64 } from './pet-id.ts';
import { RateLimitedError, secondsUntil, windowAt } from './plan-limiter.ts';
import { rateLimitState } from './rate-limit-state.ts';

/** What GET /v1/health answers while the service and its store work. */
export interface Health {
  status: 'ok';
  store: 'ok';
}

/** A probe waits no longer than this: a health check that hangs is worse than one that says no. */
export const HEALTH_PROBE_TIMEOUT_MS = 1_000;

/**
 * Reads one entry (any id will do: a read of a missing item answers as fast and costs as little),
 * so the store is known to answer reads of the inventory. Throws StoreUnavailableError when it
 * fails or takes longer than the timeout.
 */
export async function checkHealth(inventory: Pick<InventoryRepository, 'get'>, timeoutMs = HEALTH_PROBE_TIMEOUT_MS): Promise<Health> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailableError({ cause: new Error(`no answer within ${timeoutMs} ms`) })), timeoutMs);
  });
  try {
    await Promise.race([inventory.get(MAX_INT64), late]);
  } catch (error) {
    throw error instanceof StoreUnavailableError ? error : new StoreUnavailableError({ cause: error });
  } finally {
    clearTimeout(timer);
  }
  return { status: 'ok', store: 'ok' };
}

/** How long one probe's outcome, ok or not, answers every health check: the store is read at most once per this. */
export const HEALTH_OUTCOME_TTL_MS = 1_000;
/** The per-address window of health checks, by its name in RateLimit-Policy and RateLimit (on the 429 it causes). */
export const HEALTH_CHECKS_POLICY = 'health-checks';
/** Addresses tracked at once; past it the minute's counts start afresh, which costs the bound nothing an address could not get by waiting. */
const MAX_TRACKED_ADDRESSES = 10_000;

/**
 * GET /v1/health for any number of callers: the store is probed at most once a second and that
 * outcome (200 or 503) answers every check meanwhile, so traffic on an endpoint without a key
 * cannot turn into store reads; and each source address gets as many checks a minute as it gets
 * failed authentications, counted in this process (a monitor needs a few a minute).
 */
export class HealthChecks {
  private probed: { atMs: number; outcome: Promise<Health> } | undefined;
  private counts = new Map<string, number>();
  private countsMinute = 0;

  constructor(
    private readonly inventory: Pick<InventoryRepository, 'get'>,
    private readonly perMinute: number = DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a check of this address in its minute and returns how many it has left; throws RateLimitedError, with this window's state, past the bound. */
  admit(address: string): number {
    const nowMs = this.now();
    const minute = windowAt('minute', nowMs, this.perMinute);
    if (minute.startsAt !== this.countsMinute || this.counts.size >= MAX_TRACKED_ADDRESSES) {
      this.counts = new Map();
      this.countsMinute = minute.startsAt;
    }
    const count = (this.counts.get(address) ?? 0) + 1;
    this.counts.set(address, count);
    if (count > minute.limit)
      throw new RateLimitedError(
        ErrorCode.rateLimited,
        `This address sent more than ${minute.limit} health checks within a minute; retry after the time in Retry-After.`,
        rateLimitState(
          [
            {
              policy: HEALTH_CHECKS_POLICY,
              limit: minute.limit,
              seconds: minute.resetsAt - minute.startsAt,
              remaining: 0,
              resetsAt: minute.resetsAt,
            },
          ],
          Math.floor(nowMs / 1000),
        ),
        secondsUntil(minute.resetsAt, nowMs),
      );
    return minute.limit - count;
  }

  /** The latest probe's outcome while it is younger than HEALTH_OUTCOME_TTL_MS (concurrent checks share one probe), else a new probe. */
  check(): Promise<Health> {
    const nowMs = this.now();
    if (!this.probed || nowMs - this.probed.atMs >= HEALTH_OUTCOME_TTL_MS) {
      const outcome = checkHealth(this.inventory);
      // Read by every check of the next second; none of them may leave it unhandled.
      outcome.catch(() => undefined);
      this.probed = { atMs: nowMs, outcome };
    }
    return this.probed.outcome;
  }
}
