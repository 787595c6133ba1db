import { authenticate, hashApiKey, UnauthorizedError, type ApiKeyRecord, type ApiKeyRepository } from './api-keys.ts';
import { StoreUnavailableError } from './errors.ts';
import { windowAt, type UsageWindow } from './plan-limiter.ts';
import { rateLimitState, type RateLimitState, type WindowState } from './rate-limit-state.ts';

/**
 * Requests without a valid key are bounded per source address: a fixed window per clock
 * minute counts the address's failed authentications (malformed, unknown or revoked key). Past
 * the limit the address is refused (401, nothing remaining until the minute ends) before its
 * keys are looked up, so a client that sprays random keys costs at most this many key lookups a
 * minute. A key that has authenticated from the address this UTC day is still looked up, so a
 * valid key behind the same address (an office's NAT) keeps working while a neighbour sprays.
 */
export const DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE = 60;

/** The address window's name in RateLimit-Policy and RateLimit. */
export const FAILED_AUTHENTICATIONS_POLICY = 'failed-authentications';

/** The address window with `failures` counted in it, as an answer reports it. */
export function addressWindow(minute: UsageWindow, failures: number): WindowState {
  return {
    policy: FAILED_AUTHENTICATIONS_POLICY,
    limit: minute.limit,
    seconds: minute.resetsAt - minute.startsAt,
    remaining: Math.max(0, minute.limit - failures),
    resetsAt: minute.resetsAt,
  };
}

/** The state of the address window `minute` at `nowMs`, with `failures` counted in it. */
function addressState(minute: UsageWindow, failures: number, nowMs: number): RateLimitState {
  return rateLimitState([addressWindow(minute, failures)], Math.floor(nowMs / 1000));
}

export interface FailedAuthenticationStanding {
  /** Failed authentications of the address in the minute window. */
  failures: number;
  /** Whether the key has authenticated from the address this UTC day. */
  knowsKey: boolean;
}

/** The counters; the DynamoDB adapter keeps them beside the keys' usage counters, one item per address and UTC day. */
export interface FailedAuthenticationStore {
  /**
   * Counts one failure of the address in the minute window unless the window is full, in one
   * atomic step. Returns whether it was counted and the count after (counted) or as it stands (full).
   */
  countFailure(address: string, minute: UsageWindow): Promise<{ counted: boolean; failures: number }>;
  standing(address: string, minute: UsageWindow, keyHash: string): Promise<FailedAuthenticationStanding>;
  /** Records that the key authenticated from the address, for the rest of the UTC day. */
  rememberKey(address: string, minute: UsageWindow, keyHash: string): Promise<void>;
}

/**
 * What an answer that no window counts or refuses reports (the published pages, the health
 * check, a route that does not exist): the address window's limit and the end of its minute,
 * the whole limit remaining. A pure function of the clock, so that API Gateway's mock
 * integrations can compute the same (lib/rate-limit-templates.ts).
 */
export function uncountedState(nowMs: number, perMinute: number = DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE): RateLimitState {
  return addressState(windowAt('minute', nowMs, perMinute), 0, nowMs);
}

/** Remembered (address, key) pairs per process: enough for a busy instance, bounded against a flood of addresses. */
const MAX_REMEMBERED_PAIRS = 10_000;

export class FailedAuthenticationLimiter {
  /** `${address} ${keyHash}` → the UTC day (its start) in which the store was told; saves a read and a write per request. */
  private readonly remembered = new Map<string, number>();

  constructor(
    private readonly store: FailedAuthenticationStore,
    readonly perMinute: number = DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE,
    private readonly now: () => number = Date.now,
  ) {}

  uncountedState(): RateLimitState {
    return uncountedState(this.now(), this.perMinute);
  }

  /**
   * Resolves the active key behind an Authorization value sent from `address`, or throws
   * UnauthorizedError carrying the address window's state: the failure counted in it, or, once
   * it is full, nothing remaining until it resets. A key the address has not authenticated with
   * today is looked up only while the window has room. `authorization` is a function so that
   * an ambiguous request (two Authorization headers) is counted as a failure too.
   */
  async authenticate(
    address: string,
    authorization: () => string | undefined,
    keys: ApiKeyRepository,
  ): Promise<{ apiKey: string; record: ApiKeyRecord }> {
    let keyHash: string | undefined;
    try {
      const guarded: ApiKeyRepository = {
        findByHash: async (hash) => {
          keyHash = hash;
          await this.admitLookup(address, hash);
          return keys.findByHash(hash);
        },
      };
      const authenticated = await authenticate(guarded, authorization());
      await this.remember(address, hashApiKey(authenticated.apiKey));
      return authenticated;
    } catch (error) {
      // A refusal of the full window carries its state already, and is not counted: the window has no room.
      if (!(error instanceof UnauthorizedError) || error.rateLimit) throw error;
      throw new UnauthorizedError(await this.countFailure(address, keyHash));
    }
  }

  /** Refuses the lookup of a key the address has not authenticated with today, once the address's window is full. */
  private async admitLookup(address: string, keyHash: string): Promise<void> {
    if (this.remembered.get(pairOf(address, keyHash)) === this.day()) return;
    const nowMs = this.now();
    const minute = windowAt('minute', nowMs, this.perMinute);
    // Fail open: if the counters cannot be read, the lookup decides, as it would without this window.
    const standing = await this.orUndefined(() => this.store.standing(address, minute, keyHash));
    if (standing && standing.failures >= minute.limit && !standing.knowsKey) throw this.refusal(minute, nowMs);
  }

  private async remember(address: string, keyHash: string): Promise<void> {
    const pair = pairOf(address, keyHash);
    const day = this.day();
    if (this.remembered.get(pair) === day) return;
    await this.orUndefined(() => this.store.rememberKey(address, this.minute(), keyHash));
    if (this.remembered.size >= MAX_REMEMBERED_PAIRS) this.remembered.clear();
    this.remembered.set(pair, day);
  }

  private async countFailure(address: string, keyHash: string | undefined): Promise<RateLimitState> {
    const nowMs = this.now();
    const minute = windowAt('minute', nowMs, this.perMinute);
    const counted = await this.orUndefined(() => this.store.countFailure(address, minute));
    // Uncounted (the store unreachable): the headers describe the window as unused, as the keys' counting does.
    if (!counted) return uncountedState(nowMs, this.perMinute);
    if (!counted.counted) {
      // A known key that turned out revoked from a full address: refused like any other failure there.
      if (keyHash !== undefined) this.remembered.delete(pairOf(address, keyHash));
      throw this.refusal(minute, nowMs);
    }
    return addressState(minute, counted.failures, nowMs);
  }

  private refusal(minute: UsageWindow, nowMs: number): UnauthorizedError {
    return new UnauthorizedError(addressState(minute, minute.limit, nowMs));
  }

  private minute(): UsageWindow {
    return windowAt('minute', this.now(), this.perMinute);
  }

  private day(): number {
    return windowAt('day', this.now(), 1).startsAt;
  }

  private async orUndefined<T>(call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof StoreUnavailableError) return undefined;
      throw error;
    }
  }
}

const pairOf = (address: string, keyHash: string) => `${address} ${keyHash}`;
