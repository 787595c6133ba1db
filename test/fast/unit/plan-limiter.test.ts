import { describe, expect, it, vi } from 'vitest';
import { PlanLimiter, windowsAt, type UsageCounterRepository, type UsageWindow } from '../../../functions/domain/plan-limiter.ts';
import { closestToExhaustion } from '../../../functions/domain/rate-limit-state.ts';
import { RateLimitedError, windowAt } from '../../../functions/domain/plan-limiter.ts';
import { StoreUnavailableError } from '../../../functions/domain/errors.ts';
import { errorHeaders } from '../../../functions/http/error-formatter.ts';
import { ERROR_STATUSES } from '../../../functions/http/error-statuses.ts';

/** An in-memory counter store with the same contract as the DynamoDB one. */
function memoryStore(): UsageCounterRepository & { counts: Map<string, number>; bans: Map<string, number> } {
  const counts = new Map<string, number>();
  const bans = new Map<string, number>();
  const revoked = new Set<string>();
  const id = (keyId: string, window: UsageWindow) => `${keyId}#${window.kind}#${window.startsAt}`;
  const countOf = (keyId: string, window: UsageWindow) => counts.get(id(keyId, window)) ?? 0;
  const add = (keyId: string, window: UsageWindow, amount: number) => counts.set(id(keyId, window), countOf(keyId, window) + amount);
  return {
    counts,
    bans,
    async consume(keyId, minute, day, nowSeconds) {
      if (revoked.has(keyId))
        return { admitted: false, revoked: true, counts: { minute: countOf(keyId, minute), day: countOf(keyId, day) } };
      const bannedUntil = bans.get(keyId);
      if (bannedUntil !== undefined && bannedUntil > nowSeconds)
        return { admitted: false, bannedUntil, counts: { minute: countOf(keyId, minute), day: countOf(keyId, day) } };
      const full = [minute, day].filter((window) => countOf(keyId, window) >= window.limit).map((window) => window.kind);
      if (full.length > 0) return { admitted: false, full, counts: { minute: countOf(keyId, minute), day: countOf(keyId, day) } };
      add(keyId, minute, 1);
      add(keyId, day, 1);
      return { admitted: true, counts: { minute: countOf(keyId, minute), day: countOf(keyId, day) } };
    },
    async recordRejection(keyId, minute) {
      const key = `${id(keyId, minute)}#rejected`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return counts.get(key)!;
    },
    async bannedUntil(keyId) {
      return bans.get(keyId);
    },
    async ban(keyId, until) {
      bans.set(keyId, until);
    },
    async revoke(keyId) {
      revoked.add(keyId);
    },
    async unban(keyId, minute) {
      bans.delete(keyId);
      counts.delete(`${id(keyId, minute)}#rejected`);
    },
  };
}

const T0 = Date.UTC(2026, 10, 21, 23, 59, 50);

async function rejection(promise: Promise<unknown>): Promise<RateLimitedError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(RateLimitedError);
  return error as RateLimitedError;
}

describe('windowsAt', () => {
  it('aligns the minute to the clock and the day to UTC midnight', () => {
    const [minute, day] = windowsAt(T0, { perMinute: 60, perDay: 1_000 });

    expect(minute).toEqual({
      kind: 'minute',
      startsAt: Date.UTC(2026, 10, 21, 23, 59) / 1000,
      resetsAt: Date.UTC(2026, 10, 22) / 1000,
      limit: 60,
    });
    expect(day).toEqual({ kind: 'day', startsAt: Date.UTC(2026, 10, 21) / 1000, resetsAt: Date.UTC(2026, 10, 22) / 1000, limit: 1_000 });
  });
});

describe('closestToExhaustion', () => {
  it('picks the window with the fewest remaining', () => {
    expect(
      closestToExhaustion([
        { limit: 60, remaining: 3, resetsAt: 100 },
        { limit: 1_000, remaining: 10, resetsAt: 900 },
      ]),
    ).toEqual({
      limit: 60,
      remaining: 3,
      resetsAt: 100,
    });
  });

  it('breaks a tie toward the window that resets later', () => {
    expect(
      closestToExhaustion([
        { limit: 60, remaining: 5, resetsAt: 100 },
        { limit: 1_000, remaining: 5, resetsAt: 900 },
      ]).resetsAt,
    ).toBe(900);
  });
});

describe('PlanLimiter', () => {
  it('reports the minute window while it is the scarcer one', async () => {
    const limiter = new PlanLimiter(memoryStore(), undefined, () => T0);

    expect(await limiter.admit('k', { perMinute: 60, perDay: 1_000 })).toMatchObject({
      policy: 'minute',
      limit: 60,
      remaining: 59,
      resetsAt: Date.UTC(2026, 10, 22) / 1000,
      at: T0 / 1000,
      windows: [
        { policy: 'minute', limit: 60, seconds: 60, remaining: 59, resetsAt: Date.UTC(2026, 10, 22) / 1000 },
        { policy: 'day', limit: 1_000, seconds: 86_400, remaining: 999, resetsAt: Date.UTC(2026, 10, 22) / 1000 },
      ],
    });
  });

  it('rejects over the minute limit with Retry-After to the window reset, and the rejection costs no quota', async () => {
    const store = memoryStore();
    const limiter = new PlanLimiter(store, undefined, () => T0);
    for (let index = 0; index < 2; index += 1) await limiter.admit('k', { perMinute: 2, perDay: 10 });

    const error = await rejection(limiter.admit('k', { perMinute: 2, perDay: 10 }));

    expect(ERROR_STATUSES[error.code]).toBe(429);
    expect(error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(errorHeaders(error)).toEqual({
      'X-RateLimit-Limit': '2',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Date.UTC(2026, 10, 22) / 1000),
      'RateLimit-Policy': '"minute";q=2;w=60, "day";q=10;w=86400',
      RateLimit: '"minute";r=0;t=10, "day";r=8;t=10',
      'Retry-After': '10',
    });
    const [, day] = windowsAt(T0, { perMinute: 2, perDay: 10 });
    expect(store.counts.get(`k#day#${day.startsAt}`)).toBe(2);
  });

  it('admits again once the minute has rolled over', async () => {
    let now = T0;
    const limiter = new PlanLimiter(memoryStore(), undefined, () => now);
    await limiter.admit('k', { perMinute: 1, perDay: 10 });
    await rejection(limiter.admit('k', { perMinute: 1, perDay: 10 }));

    now = T0 + 10_000;

    expect((await limiter.admit('k', { perMinute: 1, perDay: 10 })).remaining).toBe(0);
  });

  it('rejects over the daily quota with its own code and Retry-After to UTC midnight', async () => {
    const now = Date.UTC(2026, 10, 21, 18, 0, 0);
    const limiter = new PlanLimiter(memoryStore(), undefined, () => now);
    await limiter.admit('k', { perMinute: 10, perDay: 1 });

    const error = await rejection(limiter.admit('k', { perMinute: 10, perDay: 1 }));

    expect(error.code).toBe('QUOTA_EXCEEDED');
    expect(errorHeaders(error)['Retry-After']).toBe(String(6 * 3600));
    expect(errorHeaders(error)['X-RateLimit-Limit']).toBe('1');
  });

  it('bans a key that keeps sending after 429, until the ban ends or is lifted', async () => {
    let now = T0 - 30_000;
    const store = memoryStore();
    const limiter = new PlanLimiter(store, { rejectionsPerMinute: 3, durationSeconds: 600 }, () => now);
    const limits = { perMinute: 1, perDay: 100 };
    await limiter.admit('k', limits);
    for (let index = 0; index < 3; index += 1) expect((await rejection(limiter.admit('k', limits))).code).toBe('RATE_LIMIT_EXCEEDED');

    now += 60_000;
    const banned = await rejection(limiter.admit('k', limits));

    expect(banned.code).toBe('API_KEY_TEMPORARILY_BANNED');
    expect(errorHeaders(banned)['Retry-After']).toBe('540');
    expect(errorHeaders(banned)['X-RateLimit-Remaining']).toBe('0');
    // Nothing is admitted until the ban ends, so Reset points there, not at the minute's end.
    expect(errorHeaders(banned)['X-RateLimit-Reset']).toBe(String(Math.floor((T0 - 30_000) / 1000) + 600));
    await store.unban('k', windowAt('minute', T0, 0));
    expect((await limiter.admit('k', limits)).remaining).toBe(0);
  });

  it('lets a ban lapse by itself', async () => {
    let now = T0;
    const store = memoryStore();
    await store.ban('k', Math.floor(T0 / 1000) + 5);
    const limiter = new PlanLimiter(store, undefined, () => now);
    await rejection(limiter.admit('k', { perMinute: 5, perDay: 5 }));

    now = T0 + 5_000;

    expect((await limiter.admit('k', { perMinute: 5, perDay: 5 })).remaining).toBe(4);
  });

  it('keeps a refusal a refusal when what follows it cannot be written down', async () => {
    const store = memoryStore();
    const busy = new StoreUnavailableError();
    store.recordRejection = () => Promise.reject(busy);
    const failures: unknown[] = [];
    const limiter = new PlanLimiter(
      store,
      undefined,
      () => T0,
      (error) => failures.push(error),
    );
    await limiter.admit('k', { perMinute: 1, perDay: 10 });

    const error = await rejection(limiter.admit('k', { perMinute: 1, perDay: 10 }));

    expect(error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(failures).toEqual([busy]);
  });

  it("asks the store once per request, and a banned key's request counts nowhere", async () => {
    const store = memoryStore();
    const consume = vi.spyOn(store, 'consume');
    const recordRejection = vi.spyOn(store, 'recordRejection');
    await store.ban('k', Math.floor(T0 / 1000) + 60);
    const limiter = new PlanLimiter(store, undefined, () => T0);

    expect((await rejection(limiter.admit('k', { perMinute: 5, perDay: 5 }))).code).toBe('API_KEY_TEMPORARILY_BANNED');
    expect(consume).toHaveBeenCalledTimes(1);
    expect(consume).toHaveBeenCalledWith(
      'k',
      expect.objectContaining({ kind: 'minute' }),
      expect.objectContaining({ kind: 'day' }),
      Math.floor(T0 / 1000),
    );
    expect(recordRejection).not.toHaveBeenCalled();
    expect([...store.counts.values()].every((count) => count === 0)).toBe(true);
  });
});
