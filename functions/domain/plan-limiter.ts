import { UnauthorizedError } from './api-keys.ts';
import { ApiError, ErrorCode, StoreUnavailableError } from './errors.ts';
import type { PlanLimits } from './plans.ts';
import { closestToExhaustion, rateLimitState, type RateLimitState, type WindowState } from './rate-limit-state.ts';

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
  | { admitted: false; counts: WindowCounts; bannedUntil: number }
  /** The key is revoked: refused here, since an authorizer may still know it as active (known-api-keys.ts). */
  | { admitted: false; counts: WindowCounts; revoked: true };

/** Atomic counters; the DynamoDB adapter implements them with one conditional write on one item. */
export interface UsageCounterRepository {
  /**
   * Counts one request in both windows or in neither, in one atomic step that also checks the
   * key's revocation and ban: a request is refused when the key is revoked, banned at
   * `nowSeconds` or either window is full, and a refused request counts nowhere. Returns the
   * counts after (admitted) or as they stand (refused).
   */
  consume(keyId: string, minute: UsageWindow, day: UsageWindow, nowSeconds: number): Promise<ConsumeResult>;
  /**
   * Refuses the key in consume from `fromSeconds` to at least `untilSeconds`: as long as an
   * authorizer may still know the key as active (known-api-keys.ts), the counting every request
   * makes is where a revocation takes effect on the next request.
   */
  revoke(keyId: string, fromSeconds: number, untilSeconds: number): Promise<void>;
  /** Counts a request rejected with 429 in this minute window; returns how many there have been. */
  recordRejection(keyId: string, minute: UsageWindow): Promise<number>;
  /** Unix seconds until which the key is banned, if it is. */
  bannedUntil(keyId: string): Promise<number | undefined>;
  /** Bans the key from now until `untilSeconds`, at most MAX_BAN_SECONDS away, including past midnight. */
  ban(keyId: string, untilSeconds: number): Promise<void>;
  /**
   * Lifts the ban, and forgets the rejections of `minute` (the current one): left counted, the
   * next 429 of that minute would impose the ban again at once.
   */
  unban(keyId: string, minute: UsageWindow): Promise<void>;
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

/** The windows of a key's plan, named by their kind: `"minute"` and `"day"`. */
export function planWindows(windows: readonly UsageWindow[], counts: WindowCounts): WindowState[] {
  return windows.map((window) => ({
    policy: window.kind,
    limit: window.limit,
    seconds: window.resetsAt - window.startsAt,
    remaining: Math.max(0, window.limit - counts[window.kind]),
    resetsAt: window.resetsAt,
  }));
}

/** A request a full window refused: the window's state, and when a retry may be admitted. */
export class RateLimitedError extends ApiError {
  constructor(code: ErrorCode, message: string, state: RateLimitState, retryAfterSeconds: number) {
    super(code, message, { rateLimit: state, retryAfterSeconds });
  }
}

/** Whole seconds until `untilSeconds`, at least 1: a Retry-After of 0 would invite an immediate retry. */
export function secondsUntil(untilSeconds: number, nowMs: number): number {
  return Math.max(1, Math.ceil(untilSeconds - nowMs / 1000));
}

export class PlanLimiter {
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

  /** What to report when the counters could not be reached: both windows as if unused, X-RateLimit-* of the minute's. */
  uncountedState(limits: PlanLimits): RateLimitState {
    const nowMs = this.now();
    const windows = planWindows(windowsAt(nowMs, limits), { minute: 0, day: 0 });
    return rateLimitState(windows, Math.floor(nowMs / 1000), windows[0]);
  }

  /**
   * Counts one request in both windows and checks the key's revocation and ban, in one store
   * call, and returns the state the X-RateLimit-* headers report, or throws UnauthorizedError
   * (revoked) or RateLimitedError. A refused request costs no quota; one refused by a full
   * window counts toward the ban threshold.
   */
  async admit(keyId: string, limits: PlanLimits): Promise<RateLimitState> {
    const nowMs = this.now();
    const [minute, day] = windowsAt(nowMs, limits);
    const result = await this.counters.consume(keyId, minute, day, Math.floor(nowMs / 1000));
    const at = Math.floor(nowMs / 1000);
    const windows = planWindows([minute, day], result.counts);
    if (result.admitted) return rateLimitState(windows, at);
    // The key's windows as they stand: the request was refused before it took anything from them.
    if ('revoked' in result) throw new UnauthorizedError(rateLimitState(windows, at));

    if ('bannedUntil' in result) {
      // Nothing is admitted before the ban ends, so that is when every window resets for this key.
      const banned = windows.map((window) => ({ ...window, remaining: 0, resetsAt: result.bannedUntil }));
      throw new RateLimitedError(
        ErrorCode.keyBanned,
        'This API key is temporarily banned for continuing to send requests after 429 responses; retry after the time in Retry-After.',
        rateLimitState(banned, at, banned[windows.indexOf(closestToExhaustion(windows))]),
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
    // A full window has nothing left whatever its count says; the others report their counts as they stand.
    const refused = windows.map((window) => (result.full.includes(window.policy as WindowKind) ? { ...window, remaining: 0 } : window));
    throw new RateLimitedError(
      blocking.kind === 'minute' ? ErrorCode.rateLimited : ErrorCode.quotaExceeded,
      `The ${perWhat} of this API key (${blocking.limit}) is used up; retry after the time in Retry-After, with exponential backoff.`,
      rateLimitState(
        refused,
        at,
        refused.find((window) => window.policy === blocking.kind),
      ),
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
