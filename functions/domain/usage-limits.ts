import { ApiError, ErrorCode, StoreUnavailableError } from './errors.ts';
import type { PlanLimits } from './plans.ts';

/**
 * Fixed-window request counting per API key: one window per minute and one per UTC day.
 * The window's start is part of its counter's identity, so a new minute is a new counter:
 * correctness never depends on old counters being deleted (TTL only tidies up).
 */
export type WindowKind = 'minute' | 'day';

export interface UsageWindow {
  kind: WindowKind;
  /** Unix seconds at which the window starts; part of the counter's key. */
  startsAt: number;
  /** Unix seconds at which the window ends and its count starts again from zero. */
  resetsAt: number;
  limit: number;
}

const WINDOW_SECONDS: Record<WindowKind, number> = { minute: 60, day: 86_400 };

/** The window of this kind that holds `nowMs`. Unix days start at 00:00 UTC, so a day window is the UTC calendar day. */
export function windowAt(kind: WindowKind, nowMs: number, limit: number): UsageWindow {
  const nowSeconds = Math.floor(nowMs / 1000);
  const length = WINDOW_SECONDS[kind];
  const startsAt = nowSeconds - (nowSeconds % length);
  return { kind, startsAt, resetsAt: startsAt + length, limit };
}

export function windowsAt(nowMs: number, limits: PlanLimits): [UsageWindow, UsageWindow] {
  return [windowAt('minute', nowMs, limits.perMinute), windowAt('day', nowMs, limits.perDay)];
}

export interface WindowCounts {
  minute: number;
  day: number;
}

export type ConsumeResult =
  | { admitted: true; counts: WindowCounts }
  | { admitted: false; counts: WindowCounts; full: WindowKind[] }
  /** The key is banned until then (Unix seconds); its windows may have room. */
  | { admitted: false; counts: WindowCounts; bannedUntil: number };

/** Atomic counters; the DynamoDB adapter implements them with one conditional write on one item. */
export interface UsageCounterRepository {
  /**
   * Counts one request in both windows or in neither, in one atomic step that also checks the
   * key's ban: a request is refused when the key is banned at `nowSeconds` or either window is
   * full, and a refused request counts nowhere. Returns the counts after (admitted) or as they
   * stand (refused).
   */
  consume(keyId: string, minute: UsageWindow, day: UsageWindow, nowSeconds: number): Promise<ConsumeResult>;
  /** Counts a request rejected with 429 in this minute window; returns how many there have been. */
  recordRejection(keyId: string, minute: UsageWindow): Promise<number>;
  /** Unix seconds until which the key is banned, if it is. */
  bannedUntil(keyId: string): Promise<number | undefined>;
  /** Bans the key from now until `untilSeconds`, at most MAX_BAN_SECONDS away, including past midnight. */
  ban(keyId: string, untilSeconds: number): Promise<void>;
  unban(keyId: string): Promise<void>;
}

export interface BanPolicy {
  /** 429s within one minute window after which the key is banned. */
  rejectionsPerMinute: number;
  durationSeconds: number;
}

export const DEFAULT_BAN_POLICY: BanPolicy = { rejectionsPerMinute: 120, durationSeconds: 900 };

/**
 * The longest ban: a day. A store that keeps the ban beside each day's counters, so that one
 * atomic step checks both (the DynamoDB adapter does), writes it for every day it reaches:
 * with bans of at most a day, two.
 */
export const MAX_BAN_SECONDS = 86_400;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix seconds. */
  resetsAt: number;
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.resetsAt),
  };
}

export class RateLimitedError extends ApiError {
  constructor(code: ErrorCode, message: string, state: RateLimitState, retryAfterSeconds: number) {
    super(429, code, message, { ...rateLimitHeaders(state), 'Retry-After': String(retryAfterSeconds) });
  }
}

/** Whole seconds until `untilSeconds`, at least 1: a Retry-After of 0 would invite an immediate retry. */
export function secondsUntil(untilSeconds: number, nowMs: number): number {
  return Math.max(1, Math.ceil(untilSeconds - nowMs / 1000));
}

/**
 * The window closest to exhaustion (fewest remaining); on a tie, the longer window, since
 * waiting for the shorter one to reset would not free more requests than the longer allows.
 */
export function closestToExhaustion(states: RateLimitState[]): RateLimitState {
  return states.reduce((closest, state) =>
    state.remaining < closest.remaining || (state.remaining === closest.remaining && state.resetsAt > closest.resetsAt) ? state : closest,
  );
}

export class UsageLimiter {
  constructor(
    private readonly counters: UsageCounterRepository,
    private readonly banPolicy: BanPolicy = DEFAULT_BAN_POLICY,
    private readonly now: () => number = Date.now,
    /** Told when bookkeeping after a verdict (rejection count, ban) could not be written. */
    private readonly onBookkeepingFailure: (error: StoreUnavailableError) => void = () => undefined,
  ) {
    if (banPolicy.durationSeconds > MAX_BAN_SECONDS)
      throw new Error(`A ban lasts at most ${MAX_BAN_SECONDS} seconds, not ${banPolicy.durationSeconds}.`);
  }

  /** What to report when the counters could not be reached: the minute window, as if unused. */
  uncountedState(limits: PlanLimits): RateLimitState {
    const [minute] = windowsAt(this.now(), limits);
    return { limit: minute.limit, remaining: minute.limit, resetsAt: minute.resetsAt };
  }

  /**
   * Counts one request in both windows and checks the key's ban, in one store call, and
   * returns the state the X-RateLimit-* headers report, or throws RateLimitedError. A refused
   * request costs no quota; one refused by a full window counts toward the ban threshold.
   */
  async admit(keyId: string, limits: PlanLimits): Promise<RateLimitState> {
    const nowMs = this.now();
    const [minute, day] = windowsAt(nowMs, limits);
    const result = await this.counters.consume(keyId, minute, day, Math.floor(nowMs / 1000));
    const states: RateLimitState[] = [
      { limit: minute.limit, remaining: Math.max(0, minute.limit - result.counts.minute), resetsAt: minute.resetsAt },
      { limit: day.limit, remaining: Math.max(0, day.limit - result.counts.day), resetsAt: day.resetsAt },
    ];
    if (result.admitted) return closestToExhaustion(states);

    if ('bannedUntil' in result) {
      throw new RateLimitedError(
        ErrorCode.keyBanned,
        'This API key is temporarily banned for continuing to send requests after 429 responses; retry after the time in Retry-After.',
        // Nothing is admitted before the ban ends, so that is when the limit resets for this key.
        { limit: closestToExhaustion(states).limit, remaining: 0, resetsAt: result.bannedUntil },
        secondsUntil(result.bannedUntil, nowMs),
      );
    }

    // Of the full windows, the one that resets last is the one the client must wait for.
    const blocking = result.full.includes('day') ? day : minute;
    const rejections = await this.bestEffort(() => this.counters.recordRejection(keyId, minute));
    if (rejections !== undefined && rejections >= this.banPolicy.rejectionsPerMinute) {
      await this.bestEffort(() => this.counters.ban(keyId, Math.floor(nowMs / 1000) + this.banPolicy.durationSeconds));
    }
    const perWhat = blocking.kind === 'minute' ? 'per-minute request limit' : 'daily request quota';
    throw new RateLimitedError(
      blocking.kind === 'minute' ? ErrorCode.rateLimited : ErrorCode.quotaExceeded,
      `The ${perWhat} of this API key (${blocking.limit}) is used up; retry after the time in Retry-After, with exponential backoff.`,
      { limit: blocking.limit, remaining: 0, resetsAt: blocking.resetsAt },
      secondsUntil(blocking.resetsAt, nowMs),
    );
  }

  /**
   * Once the verdict is known, failing to write down what follows from it must not change the
   * verdict: a refused request stays refused even when the store is too busy to count it.
   */
  private async bestEffort<T>(write: () => Promise<T>): Promise<T | undefined> {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      this.onBookkeepingFailure(error);
      return undefined;
    }
  }
}
