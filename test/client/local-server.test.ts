import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createInventoryClient, type InventoryClientOptions, type RetryEvent } from '../../client/index.ts';
import { StoreUnavailableError } from '../../functions/domain/errors.ts';
import { startLocalApp, type LocalApp } from '../../local/local-app.ts';
import { beforeLaterPages, failingListing, idsInShard, throttled } from '../support/inventory.ts';
import { INVENTORY_PAGE_SIZE } from '../../functions/adapters/dynamodb/inventory-repository.ts';
import { testAppStore } from '../support/local-store.ts';
import { DEMO_INVENTORY } from '../../local/seed.ts';
import { insideOneMinute } from '../support/minute-window.ts';

/** The typed client against the real local server: exact ids, surfaced limits, real 429 and 503. */

const PRO_KEY = 'ClientProKey00000000000000000001';
const FREE_KEY = 'ClientFreeKey0000000000000000001';
const BIG_ID = 9_007_199_254_740_993n;

let app: LocalApp;

beforeAll(async () => {
  app = await startLocalApp({ ...testAppStore(), seed: DEMO_INVENTORY, devApiKey: PRO_KEY, devPlan: 'pro' });
});

afterAll(async () => {
  await app?.close();
});

function clientOf(target: LocalApp, apiKey: string, options: Partial<InventoryClientOptions> = {}) {
  const sleeps: number[] = [];
  const retries: RetryEvent[] = [];
  const client = createInventoryClient({
    baseUrl: target.baseUrl,
    apiKey,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    onRetry: (retry) => retries.push(retry),
    ...options,
  });
  return { client, sleeps, retries };
}

describe('createInventoryClient against the local server', () => {
  it('lists the inventory with petIds above 2^53 exact, and surfaces the rate-limit headers', async () => {
    const { client } = clientOf(app, PRO_KEY);

    const result = await client.listInventory();

    expect(result.data?.map((item) => item.petId)).toEqual([1n, 2n, 3n, 4n, 5n, BIG_ID]);
    expect(result.rateLimit).toMatchObject({ limit: 300, remaining: expect.any(Number), resetAt: expect.any(Number) });
    expect(result.rateLimit!.resetAt).toBeGreaterThan(Date.now() / 1000);
    // Both windows of the pro plan, from RateLimit-Policy and RateLimit.
    expect(result.rateLimit!.windows).toEqual([
      { name: 'minute', limit: 300, windowSeconds: 60, remaining: result.rateLimit!.remaining, resetInSeconds: expect.any(Number) },
      { name: 'day', limit: 10_000, windowSeconds: 86_400, remaining: expect.any(Number), resetInSeconds: expect.any(Number) },
    ]);
  });

  it('updates the stock of a pet whose id a double cannot hold', async () => {
    const { client } = clientOf(app, PRO_KEY);

    const result = await client.updateInventory(BIG_ID, { quantity: 9 });

    expect(result.data).toEqual({ petId: BIG_ID, quantity: 9, status: 'available' });
    expect(result.response?.headers.get('X-API-Stability')).toBe('experimental');
  });

  it('reads a pet through the deprecated operation, its sunset in the response', async () => {
    const { client } = clientOf(app, PRO_KEY);

    const result = await client.getPetById(BIG_ID);

    expect(result.data).toEqual({ id: BIG_ID, status: 'available' });
    expect(result.response?.headers.get('Sunset')).toBe('Thu, 01 Jul 2027 00:00:00 GMT');
  });

  it('returns 4xx errors at once, in the contract Error shape', async () => {
    const { client, retries } = clientOf(app, PRO_KEY);

    const missing = await client.getPetById(424_242n);
    const invalid = await client.updateInventory(1n, { quantity: -1 });
    const unauthorized = await clientOf(app, 'WrongKey00000000000000000000001').client.listInventory();

    expect([missing.status, missing.error?.code]).toEqual([404, 'PET_NOT_FOUND']);
    expect([invalid.status, invalid.error?.code]).toEqual([400, 'INVALID_BODY']);
    // A 401 reports the source address's window of failed authentications (60 a minute).
    expect([unauthorized.status, unauthorized.error?.code, unauthorized.rateLimit]).toEqual([
      401,
      'UNAUTHORIZED',
      {
        limit: 60,
        remaining: expect.any(Number),
        resetAt: expect.any(Number),
        windows: [
          {
            name: 'failed-authentications',
            limit: 60,
            windowSeconds: 60,
            remaining: expect.any(Number),
            resetInSeconds: expect.any(Number),
          },
        ],
      },
    ]);
    expect(retries).toEqual([]);
  });

  it('applies an adjustment whose answer was lost once: the retry carries the same Idempotency-Key and is replayed', async () => {
    const before = (await clientOf(app, PRO_KEY).client.getInventoryItem(5n)).data!.quantity;
    let dropped = 0;
    // The server applies the first request; its answer never reaches the client, as when a connection drops.
    const losingFirstAnswer = async (request: Request) => {
      const response = await fetch(request);
      if (dropped++ === 0) throw new TypeError('fetch failed: the connection dropped before the answer');
      return response;
    };
    const { client, retries } = clientOf(app, PRO_KEY, { fetch: losingFirstAnswer });

    const result = await client.adjustInventory(5n, { delta: 4, reason: 'arrival' });

    expect(retries.map(({ reason }) => (reason instanceof Error ? reason.message : reason))).toEqual([
      'fetch failed: the connection dropped before the answer',
    ]);
    expect([result.status, result.data?.quantity, result.response?.headers.get('idempotent-replayed')]).toEqual([200, before + 4, 'true']);
    expect((await client.getInventoryItem(5n)).data!.quantity).toBe(before + 4);
  });

  it('retries a 503 from the store after backoff and returns the success', async () => {
    vi.spyOn(app.dependencies.inventory, 'listAll').mockImplementationOnce(failingListing(new StoreUnavailableError()));
    const { client, retries, sleeps } = clientOf(app, PRO_KEY, { random: () => 0.5 });

    const result = await client.listInventory();

    expect(result.status).toBe(200);
    expect(retries.map(({ reason }) => reason)).toEqual([503]);
    // max(backoff 0.5 × 200 ms, Retry-After 1 s)
    expect(sleeps).toEqual([1_000]);
  });

  it('resolves a listing the server had to cut midway to INCOMPLETE_RESPONSE, never to a shorter array', async () => {
    const pets = idsInShard(0, INVENTORY_PAGE_SIZE + 1).map((petId) => ({ petId, quantity: 1, status: 'sold' as const }));
    const cut = await startLocalApp({ ...testAppStore(), seed: pets, devApiKey: PRO_KEY, devPlan: 'pro' });
    const removeFault = beforeLaterPages(cut.dependencies.client, () => Promise.reject(throttled()));
    try {
      const { client, retries } = clientOf(cut, PRO_KEY);

      const result = await client.listInventory();

      expect([result.status, result.data, result.error?.code]).toEqual([200, undefined, 'INCOMPLETE_RESPONSE']);
      expect(result.error?.message).toMatch(/terminated|closing bracket/);
      expect(retries).toEqual([]);
    } finally {
      removeFault();
      await cut.close();
    }
  });

  it('resolves to NETWORK_ERROR after maxAttempts when the server cannot be reached', async () => {
    const closed = await startLocalApp({ ...testAppStore(), seed: [], devApiKey: PRO_KEY, devPlan: 'pro' });
    await closed.close();
    const { client, retries } = clientOf(closed, PRO_KEY, { maxAttempts: 3 });

    const result = await client.listInventory();

    expect([result.status, result.error?.code, result.response]).toEqual([0, 'NETWORK_ERROR', undefined]);
    expect(result.error?.message).toMatch(/^The API could not be reached \(fetch failed: .*ECONNREFUSED/);
    expect(retries.map(({ attempt }) => attempt)).toEqual([1, 2]);
  });

  it('waits for the Retry-After of a real 429 on a free-plan key (61st request in a minute), then retries once', async () => {
    const free = await startLocalApp({ ...testAppStore(), seed: DEMO_INVENTORY, devApiKey: FREE_KEY, devPlan: 'free' });
    try {
      const once = clientOf(free, FREE_KEY, { maxAttempts: 1 });
      const results = [];
      await insideOneMinute();
      while (results.at(-1)?.status !== 429 && results.length < 121) results.push(await once.client.listInventory());
      const answers: Response[] = [];
      const twice = clientOf(free, FREE_KEY, {
        maxAttempts: 2,
        // Retry-After runs to the end of the minute, up to 60 s: a deadline past it lets the retry be tried.
        timeoutMs: 120_000,
        fetch: async (request) => {
          const response = await fetch(request);
          answers.push(response);
          return response;
        },
      });

      const retried = await twice.client.listInventory();

      const limited = results.at(-1)!;
      expect([limited.status, limited.error?.code, limited.rateLimit?.remaining]).toEqual([429, 'RATE_LIMIT_EXCEEDED', 0]);
      expect(limited.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect([once.retries, once.sleeps]).toEqual([[], []]);
      // The injected sleep returns at once, so the server's minute has not moved on: the retry meets 429 again.
      expect(answers.map((answer) => answer.status)).toEqual([429, 429]);
      expect(retried.status).toBe(429);
      expect(twice.sleeps).toEqual([Number(answers[0]!.headers.get('Retry-After')) * 1000]);
    } finally {
      await free.close();
    }
  });
});
