import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { UnauthorizedError } from '../../../functions/domain/api-keys.ts';
import { PLAN_LIMITS } from '../../../functions/domain/plans.ts';
import { RateLimitedError, PlanLimiter, windowAt, windowsAt } from '../../../functions/domain/plan-limiter.ts';
import type { RateLimitState } from '../../../functions/domain/rate-limit-state.ts';
import { KeyAdmin } from '../../../local/key-admin.ts';
import { startTestStore, type TestStore } from '../../support/local-store.ts';

let test: TestStore | undefined;
afterEach(async () => {
  await test?.close();
  test = undefined;
});

// 10 s into a minute, so a burst stays inside one minute window.
const T0 = Date.UTC(2026, 10, 21, 9, 30, 10);

async function burst(limiter: PlanLimiter, keyId: string, limits: { perMinute: number; perDay: number }, requests: number) {
  const outcomes = await Promise.allSettled(Array.from({ length: requests }, () => limiter.admit(keyId, limits)));
  const admitted = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const rejected = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as RateLimitedError] : []));
  return { admitted, rejected };
}

const remainingOf = (states: RateLimitState[]) => states.map((state) => state.remaining).sort((a, b) => a - b);

describe('plan limits on DynamoDB Local under a concurrent burst', () => {
  it.each(Object.entries(PLAN_LIMITS))(
    '%s: exactly the per-minute limit succeeds, reporting each remaining count once',
    async (_plan, limits) => {
      test = await startTestStore();
      const limiter = new PlanLimiter(test.dependencies.usageCounters, undefined, () => T0);
      const extra = 25;

      const { admitted, rejected } = await burst(limiter, 'key_burst', limits, limits.perMinute + extra);

      expect(admitted).toHaveLength(limits.perMinute);
      expect(remainingOf(admitted)).toEqual(Array.from({ length: limits.perMinute }, (_, index) => index));
      expect(rejected).toHaveLength(extra);
      expect(rejected.every((error) => error instanceof RateLimitedError && error.rateLimit?.remaining === 0)).toBe(true);
      // Refused requests counted nowhere: the day holds the admitted ones only.
      const [, day] = windowsAt(T0, limits);
      const { Item } = await test.dependencies.client.send(
        new GetCommand({ TableName: test.tables.usageCountersTable, Key: { counterId: `key_burst#usage#${day.startsAt}` } }),
      );
      expect(Number(Item?.requests)).toBe(limits.perMinute);
    },
  );

  it('is exact when both windows are near exhaustion, even with the store answering out of order', async () => {
    test = await startTestStore();
    // Up to 5 ms of latency per call, as a real table has: interleaves the requests' writes.
    test.dependencies.countingClient.middlewareStack.add(
      (next) => async (args) => {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
        return next(args);
      },
      { step: 'initialize', name: 'jitter' },
    );
    let now = T0;
    const limiter = new PlanLimiter(test.dependencies.usageCounters, undefined, () => now);
    const admittedPerTrial: number[] = [];

    for (let trial = 0; trial < 20; trial += 1) {
      const keyId = `key_edge_${trial}`;
      now = T0 - 60_000;
      await burst(limiter, keyId, { perMinute: 10, perDay: 10 }, 7);
      now = T0;
      // 3 left in the day and 3 in this minute: exactly 3 of 6 may pass, whatever the interleaving.
      const { admitted } = await burst(limiter, keyId, { perMinute: 3, perDay: 10 }, 6);
      admittedPerTrial.push(admitted.length);
    }

    expect(admittedPerTrial).toEqual(Array(20).fill(3));
  });

  it('counts keys apart', async () => {
    test = await startTestStore();
    const limiter = new PlanLimiter(test.dependencies.usageCounters, undefined, () => T0);
    const limits = { perMinute: 3, perDay: 100 };

    const [first, second] = await Promise.all([burst(limiter, 'key_a', limits, 5), burst(limiter, 'key_b', limits, 5)]);

    expect([first.admitted.length, second.admitted.length]).toEqual([3, 3]);
  });
});

describe('windows over time (controlled clock)', () => {
  it('starts a new minute window with a fresh count', async () => {
    test = await startTestStore();
    let now = T0;
    const limiter = new PlanLimiter(test.dependencies.usageCounters, undefined, () => now);
    const limits = { perMinute: 2, perDay: 100 };
    await burst(limiter, 'key_roll', limits, 2);
    const blocked = await burst(limiter, 'key_roll', limits, 1);
    expect(blocked.rejected[0]?.retryAfterSeconds).toBe(50);

    now = T0 + 50_000;

    const next = await limiter.admit('key_roll', limits);
    expect(next).toMatchObject({ policy: 'minute', limit: 2, remaining: 1, resetsAt: Math.floor(now / 1000) + 60 });
  });

  it('holds the daily quota across minutes until the next UTC day', async () => {
    test = await startTestStore();
    let now = Date.UTC(2026, 10, 21, 22, 0, 0);
    const limiter = new PlanLimiter(test.dependencies.usageCounters, undefined, () => now);
    const limits = { perMinute: 10, perDay: 3 };
    for (let minute = 0; minute < 3; minute += 1) {
      now += 60_000;
      await limiter.admit('key_day', limits);
    }
    now += 60_000;
    const [error] = (await burst(limiter, 'key_day', limits, 1)).rejected;
    expect(error?.code).toBe('QUOTA_EXCEEDED');
    expect(error?.rateLimit?.resetsAt).toBe(Date.UTC(2026, 10, 22) / 1000);

    now = Date.UTC(2026, 10, 22, 0, 0, 1);

    expect(await limiter.admit('key_day', limits)).toMatchObject({ limit: 3, remaining: 2 });
  });
});

describe('temporary bans', () => {
  it('bans a key that keeps sending after 429, answers with the ban until it ends, and can be lifted', async () => {
    test = await startTestStore({ rejectionsPerMinute: 5, durationSeconds: 300 });
    let now = T0;
    const limiter = new PlanLimiter(test.dependencies.usageCounters, { rejectionsPerMinute: 5, durationSeconds: 300 }, () => now);
    const limits = { perMinute: 1, perDay: 1_000 };
    await limiter.admit('key_ban', limits);
    const storm = await burst(limiter, 'key_ban', limits, 5);
    expect(storm.rejected.map((error) => error.code)).toEqual(Array(5).fill('RATE_LIMIT_EXCEEDED'));

    now = T0 + 120_000;
    const [banned] = (await burst(limiter, 'key_ban', limits, 1)).rejected;
    expect(banned?.code).toBe('API_KEY_TEMPORARILY_BANNED');
    expect(banned?.retryAfterSeconds).toBe(180);

    now = T0 + 300_000;
    expect(await limiter.admit('key_ban', limits)).toMatchObject({ remaining: 0 });

    await test.dependencies.usageCounters.ban('key_ban', Math.floor(now / 1000) + 600);
    expect((await burst(limiter, 'key_ban', limits, 1)).rejected[0]?.code).toBe('API_KEY_TEMPORARILY_BANNED');
    await test.dependencies.usageCounters.unban('key_ban', windowAt('minute', now, 0));
    now += 60_000;
    expect(await limiter.admit('key_ban', limits)).toMatchObject({ remaining: 0 });
  });

  it("lifts a ban so that the rest of its minute is rate limited, not banned again by the minute's earlier rejections", async () => {
    test = await startTestStore({ rejectionsPerMinute: 5, durationSeconds: 300 });
    const now = T0;
    const limiter = new PlanLimiter(test.dependencies.usageCounters, { rejectionsPerMinute: 5, durationSeconds: 300 }, () => now);
    const limits = { perMinute: 1, perDay: 1_000 };
    await limiter.admit('key_unban', limits);
    await burst(limiter, 'key_unban', limits, 5);
    const bannedBefore = await test.dependencies.usageCounters.bannedUntil('key_unban');

    await test.dependencies.usageCounters.unban('key_unban', windowAt('minute', now, 0));
    const [next] = (await burst(limiter, 'key_unban', limits, 1)).rejected;

    expect(bannedBefore).toBeGreaterThan(now / 1000);
    expect(next?.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(await test.dependencies.usageCounters.bannedUntil('key_unban')).toBeUndefined();
  });

  it('holds a ban that spans midnight on the next day, and lifts it there too', async () => {
    test = await startTestStore({ rejectionsPerMinute: 2, durationSeconds: 900 });
    let now = Date.UTC(2026, 10, 21, 23, 55, 10);
    const limiter = new PlanLimiter(test.dependencies.usageCounters, { rejectionsPerMinute: 2, durationSeconds: 900 }, () => now);
    const limits = { perMinute: 1, perDay: 1_000 };
    await limiter.admit('key_midnight', limits);
    await burst(limiter, 'key_midnight', limits, 2);
    const bannedUntil = Math.floor(now / 1000) + 900;

    now = Date.UTC(2026, 10, 22, 0, 1, 0);
    const [afterMidnight] = (await burst(limiter, 'key_midnight', limits, 1)).rejected;
    expect(afterMidnight?.code).toBe('API_KEY_TEMPORARILY_BANNED');
    expect(afterMidnight?.rateLimit?.resetsAt).toBe(bannedUntil);

    now = bannedUntil * 1000;
    expect(await limiter.admit('key_midnight', limits)).toMatchObject({ remaining: 0 });

    await test.dependencies.usageCounters.ban('key_midnight', Math.floor(now / 1000) + 600);
    await test.dependencies.usageCounters.unban('key_midnight', windowAt('minute', now, 0));
    now += 60_000;
    expect(await limiter.admit('key_midnight', limits)).toMatchObject({ remaining: 0 });
  });
});

describe('revocation in the counting write (the authorizer may still hold an Allow for the key)', () => {
  const limits = { perMinute: 10, perDay: 1_000 };

  it("refuses a revoked key's next request 401 from the counting write itself, counting nothing", async () => {
    test = await startTestStore();
    const now = T0;
    const limiter = new PlanLimiter(test.dependencies.usageCounters, undefined, () => now);
    const admin = new KeyAdmin(test.dependencies.apiKeys, test.dependencies.usageCounters, undefined, () => now);
    const { record } = await admin.issue({ plan: 'free', owner: 'revoked while cached' });
    expect(await limiter.admit(record.keyId, limits)).toMatchObject({ remaining: 9 });

    await admin.revoke(record.keyId);
    const [refused] = (await burst(limiter, record.keyId, limits, 1)).rejected;

    expect(refused).toBeInstanceOf(UnauthorizedError);
    expect(refused?.code).toBe('UNAUTHORIZED');
    // The key's windows as they stand: the refused request took nothing from them.
    expect(refused?.rateLimit).toMatchObject({ policy: 'minute', limit: 10, remaining: 9 });
  });

  it('reaches past midnight as far as the authorizer may cache the key', async () => {
    test = await startTestStore();
    let now = Date.UTC(2026, 10, 21, 23, 59, 30);
    const limiter = new PlanLimiter(test.dependencies.usageCounters, undefined, () => now);
    const admin = new KeyAdmin(test.dependencies.apiKeys, test.dependencies.usageCounters, undefined, () => now);
    const { record } = await admin.issue({ plan: 'free', owner: 'revoked before midnight' });
    await admin.revoke(record.keyId);

    now = Date.UTC(2026, 10, 22, 0, 0, 10);
    const [afterMidnight] = (await burst(limiter, record.keyId, limits, 1)).rejected;

    expect(afterMidnight?.code).toBe('UNAUTHORIZED');
  });
});
