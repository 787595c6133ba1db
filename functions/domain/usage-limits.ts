import { ApiError, ErrorCode } from './errors.ts';
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

export function windowsAt(nowMs: number, limits: PlanLimits): [UsageWindow, UsageWindow] {
  const nowSeconds = Math.floor(nowMs / 1000);
  const window = (kind: WindowKind, limit: number): UsageWindow => {
    const length = WINDOW_SECONDS[kind];
    const startsAt = nowSeconds - (nowSeconds % length);
    return { kind, startsAt, resetsAt: startsAt + length, limit };
  };
  // Unix days start at 00:00 UTC, so the day window is the UTC calendar day.
  return [window('minute', limits.perMinute), window('day', limits.perDay)];
}

/** Atomic counters; the DynamoDB adapter implements them with conditional ADD. */
export interface UsageCounterStore {
  /** Adds one to the window's count unless it has reached the limit; returns the new count, or undefined when full. */
  consume(keyId: string, window: UsageWindow): Promise<number | undefined>;
  /** Takes back a unit consumed by a request that was then rejected by another window. */
  release(keyId: string, window: UsageWindow): Promise<void>;
  /** Counts a request rejected with 429 in this minute window; returns how many there have been. */
  recordRejection(keyId: string, minute: UsageWindow): Promise<number>;
  /** Unix seconds until which the key is banned, if it is. */
  bannedUntil(keyId: string): Promise<number | undefined>;
  ban(keyId: string, untilSeconds: number): Promise<void>;
  unban(keyId: string): Promise<void>;
}

export interface BanPolicy {
  /** 429s within one minute window after which the key is banned. */
  rejectionsPerMinute: number;
  durationSeconds: number;
}

export const DEFAULT_BAN_POLICY: BanPolicy = { rejectionsPerMinute: 120, durationSeconds: 900 };

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
function secondsUntil(untilSeconds: number, nowMs: number): number {
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
    private readonly store: UsageCounterStore,
    private readonly banPolicy: BanPolicy = DEFAULT_BAN_POLICY,
    private readonly now: () => number = Date.now,
  ) {}

  /** What to report when the counters could not be reached: the minute window, as if unused. */
  uncountedState(limits: PlanLimits): RateLimitState {
    const [minute] = windowsAt(this.now(), limits);
    return { limit: minute.limit, remaining: minute.limit, resetsAt: minute.resetsAt };
  }

  /**
   * Counts one request against both windows in parallel (one round trip) and returns the
   * state the X-RateLimit-* headers report, or throws
   * RateLimitedError. A rejected request takes back what it consumed, so it costs no quota;
   * it counts toward the ban threshold instead.
   */
  async admit(keyId: string, limits: PlanLimits): Promise<RateLimitState> {
    const nowMs = this.now();
    const windows = windowsAt(nowMs, limits);
    const [bannedUntil, ...counts] = await Promise.all([
      this.store.bannedUntil(keyId),
      ...windows.map((window) => this.store.consume(keyId, window)),
    ]);
    const consumed = windows.filter((_, index) => counts[index] !== undefined);
    const states = windows.map((window, index): RateLimitState => ({
      limit: window.limit,
      remaining: Math.max(0, window.limit - (counts[index] ?? window.limit)),
      resetsAt: window.resetsAt,
    }));

    if (bannedUntil !== undefined && bannedUntil > nowMs / 1000) {
      await Promise.all(consumed.map((window) => this.store.release(keyId, window)));
      throw new RateLimitedError(
        ErrorCode.keyBanned,
        'This API key is temporarily banned for continuing to send requests after 429 responses; retry after the time in Retry-After.',
        { ...closestToExhaustion(states), remaining: 0 },
        secondsUntil(bannedUntil, nowMs),
      );
    }

    const full = windows.filter((_, index) => counts[index] === undefined);
    if (full.length === 0) return closestToExhaustion(states);

    const [minute] = windows;
    const [rejections] = await Promise.all([
      this.store.recordRejection(keyId, minute),
      ...consumed.map((window) => this.store.release(keyId, window)),
    ]);
    const blocking = full.reduce((latest, window) => (window.resetsAt > latest.resetsAt ? window : latest));
    const state: RateLimitState = { limit: blocking.limit, remaining: 0, resetsAt: blocking.resetsAt };
    if (rejections >= this.banPolicy.rejectionsPerMinute) {
      const bannedUntilSeconds = Math.floor(nowMs / 1000) + this.banPolicy.durationSeconds;
      await this.store.ban(keyId, bannedUntilSeconds);
    }
    const perWhat = blocking.kind === 'minute' ? 'per-minute request limit' : 'daily request quota';
    throw new RateLimitedError(
      blocking.kind === 'minute' ? ErrorCode.rateLimited : ErrorCode.quotaExceeded,
      `The ${perWhat} of this API key (${blocking.limit}) is used up; retry after the time in Retry-After, with exponential backoff.`,
      state,
      secondsUntil(blocking.resetsAt, nowMs),
    );
  }
}
