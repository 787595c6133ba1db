/**
 * The client's retry policy, as a fetch function for openapi-fetch:
 * - 429: wait for Retry-After, then try again, whatever the method (the request was refused,
 *   not run); a 429 repeated on later attempts waits the longer of Retry-After and the
 *   exponential backoff below, as the contract asks of clients. A Retry-After longer than
 *   `maxRetryAfterSeconds` (a spent daily quota, a ban) is handed to the caller instead of
 *   slept through.
 * - 5xx and network errors: retried only for idempotent requests, after exponential backoff with
 *   full jitter (a random delay between 0 and base × 2^(attempt−1), capped), and never sooner
 *   than a Retry-After the answer carries.
 * - Any other answer, 4xx included, is returned at once.
 * At most `maxAttempts` attempts in all, and no wait that would end after the call's deadline:
 * the last answer is handed back instead. An aborted signal ends the attempt or the wait at once.
 */

export interface RetryOptions {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterSeconds: number;
  /** Whether repeating the request has the effect of sending it once. */
  idempotent: (request: Request) => boolean;
  fetch: (request: Request) => Promise<Response>;
  /** Waits ms, or rejects with the signal's reason once it is aborted. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1), as Math.random. */
  random: () => number;
  now: () => number;
  /** When the whole call must be over, in `now()`'s milliseconds: no retry waits past it. */
  deadlineAt?: number;
  onRetry?: (retry: RetryEvent) => void;
}

export interface RetryEvent {
  /** The attempt that failed, from 1. */
  attempt: number;
  delayMs: number;
  /** The status that is retried, or the network error. */
  reason: number | Error;
}

/**
 * GET, PUT and DELETE of this API can be repeated safely. A PATCH or a POST only with an
 * Idempotency-Key, which the service applies once (updateInventory and the adjustments send one):
 * a compare-and-set repeated without one after its answer was lost meets its own write and
 * answers 409, and a POST without one (order creation) may run twice.
 */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** A reservation settles once: committing it again answers the same and takes nothing more. */
const SETTLES_ONCE = /\/inventory\/reservations\/[^/]+\/commit$/;

export function isIdempotent(request: Request): boolean {
  return (
    IDEMPOTENT_METHODS.has(request.method.toUpperCase()) ||
    request.headers.has('Idempotency-Key') ||
    SETTLES_ONCE.test(new URL(request.url).pathname)
  );
}

export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** Retry-After in seconds: delta-seconds or an HTTP-date (RFC 9110 10.2.3); undefined when absent or unreadable. */
export function retryAfterSeconds(response: Response, nowMs: number): number | undefined {
  const value = response.headers.get('Retry-After')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

function backoffMs(attempt: number, options: RetryOptions): number {
  return Math.floor(options.random() * Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1)));
}

/** How long to wait before the next attempt, or undefined when this outcome is final. */
function delayBefore(retry: number, outcome: Response | Error, request: Request, options: RetryOptions): number | undefined {
  if (outcome instanceof Error) {
    const isNetworkError = outcome instanceof TypeError;
    return isNetworkError && options.idempotent(request) ? backoffMs(retry, options) : undefined;
  }
  const waitSeconds = retryAfterSeconds(outcome, options.now());
  if (outcome.status === 429) {
    if (waitSeconds === undefined) return backoffMs(retry, options);
    return waitSeconds <= options.maxRetryAfterSeconds ? Math.max(waitSeconds * 1000, backoffMs(retry, options)) : undefined;
  }
  if (outcome.status >= 500 && options.idempotent(request)) return Math.max(backoffMs(retry, options), (waitSeconds ?? 0) * 1000);
  return undefined;
}

export function retryingFetch(options: RetryOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    for (let attempt = 1; ; attempt += 1) {
      request.signal.throwIfAborted();
      let outcome: Response | Error;
      try {
        outcome = await options.fetch(request.clone());
      } catch (error) {
        outcome = error instanceof Error ? error : new Error(String(error));
      }
      const delayMs =
        attempt < options.maxAttempts && !request.signal.aborted ? delayBefore(attempt, outcome, request, options) : undefined;
      const pastDeadline = delayMs !== undefined && options.deadlineAt !== undefined && options.now() + delayMs >= options.deadlineAt;
      if (delayMs === undefined || pastDeadline) {
        if (outcome instanceof Error) throw outcome;
        return outcome;
      }
      if (!(outcome instanceof Error)) await outcome.body?.cancel();
      options.onRetry?.({ attempt, delayMs, reason: outcome instanceof Error ? outcome : outcome.status });
      await options.sleep(delayMs, request.signal);
    }
  };
}
