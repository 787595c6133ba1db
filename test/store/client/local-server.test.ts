import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ChangesPageError,
  createInventoryClient,
  type ChangeFeedBatch,
  type InventoryClientOptions,
  type RetryEvent,
} from '../../../client/index.ts';
import { StoreUnavailableError } from '../../../functions/domain/errors.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { beforeLaterPages, failingListing, idsInShard, throttled } from '../../support/inventory.ts';
import { INVENTORY_PAGE_SIZE } from '../../../functions/adapters/dynamodb/stored-inventory-item.ts';
import { testAppStore } from '../../support/local-store.ts';
import { DEMO_INVENTORY } from '../../../contract/demo-inventory.ts';
import { insideOneMinute } from '../../support/minute-window.ts';

/** The typed client against the real local server: exact ids, surfaced limits, real 429 and 503. */

const PRO_KEY = 'ClientProKey00000000000000000001';
const FREE_KEY = 'ClientFreeKey0000000000000000001';
const BIG_ID = 9_007_199_254_740_993n;

let app: LocalApp;

beforeAll(async () => {
  app = await startLocalApp({ ...testAppStore({ recordChanges: true }), seed: DEMO_INVENTORY, devApiKey: PRO_KEY, devPlan: 'pro' });
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

    expect(result.data).toEqual({ petId: BIG_ID, quantity: 9, status: 'available', reserved: 0, available: 9 });
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

/** Everything an iterator yields, in order. */
async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

/** A fetch that counts the requests to one path (after the stage) and lets them through. */
function countingFetch(path: string) {
  const requests: URL[] = [];
  return {
    requests,
    fetch: (request: Request) => {
      const url = new URL(request.url);
      if (url.pathname.endsWith(path)) requests.push(url);
      return fetch(request);
    },
  };
}

describe("the client's iterator over a pet's history", () => {
  it('yields every change oldest first, following nextCursor page by page until it is null', async () => {
    const { client } = clientOf(app, PRO_KEY);
    for (const quantity of [20, 21, 22, 23]) expect((await client.updateInventory(2n, { quantity })).status).toBe(200);
    await app.history.caughtUp();
    const counted = countingFetch('/inventory/2/changes');

    const changes = await collect(clientOf(app, PRO_KEY, { fetch: counted.fetch }).client.allInventoryChanges(2n, { limit: 2 }));

    expect(changes.map(({ version, kind, quantityBefore, quantityAfter }) => [version, kind, quantityBefore, quantityAfter])).toEqual([
      [1, 'seed', null, 3],
      [2, 'set', 3, 20],
      [3, 'set', 20, 21],
      [4, 'set', 21, 22],
      [5, 'set', 22, 23],
    ]);
    // Pages of 2, 2 and 1: the last one's nextCursor is null, so nothing is asked after it.
    expect(counted.requests.map((url) => [url.searchParams.get('limit'), url.searchParams.has('cursor')])).toEqual([
      ['2', false],
      ['2', true],
      ['2', true],
    ]);
  });

  it('throws ChangesPageError with the contract error for a pet without an entry', async () => {
    const { client } = clientOf(app, PRO_KEY);

    const failure = await collect(client.allInventoryChanges(424_242n)).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ChangesPageError);
    expect([
      (failure as ChangesPageError).error.code,
      (failure as ChangesPageError).error.status,
      (failure as ChangesPageError).cursor,
    ]).toEqual(['PET_NOT_FOUND', 404, undefined]);
  });
});

describe("the client's follower of the change feed", () => {
  let feedApp: LocalApp;
  /** The changes, as the feed names them: which pet, which version. */
  const named = (batches: ChangeFeedBatch[]) =>
    batches.flatMap((batch) => batch.changes.map(({ petId, version }) => `${petId}.${version}`));

  beforeAll(async () => {
    feedApp = await startLocalApp({ ...testAppStore({ recordChanges: true }), seed: DEMO_INVENTORY, devApiKey: PRO_KEY, devPlan: 'pro' });
    await feedApp.history.caughtUp();
  });

  afterAll(async () => {
    await feedApp?.close();
  });

  it('catches up from the oldest change page by page, each page with the cursor after it, and ends at the first empty page', async () => {
    const counted = countingFetch('/inventory/changes');
    const { client } = clientOf(feedApp, PRO_KEY, { fetch: counted.fetch });

    const batches = await collect(client.followChangeFeed({ limit: 4 }));

    expect(batches.map((batch) => batch.changes.length)).toEqual([4, 2]);
    expect(named(batches).sort()).toEqual(DEMO_INVENTORY.map(({ petId }) => `${petId}.1`).sort());
    expect(batches.flatMap((batch) => batch.changes.map((change) => change.kind))).toEqual(DEMO_INVENTORY.map(() => 'seed'));
    // The third page was empty: it ends the iteration and is not yielded. Each request started where the last page ended.
    expect(counted.requests.map((url) => url.searchParams.get('cursor'))).toEqual([null, batches[0]!.cursor, batches[1]!.cursor]);
  });

  it('resumes from a cursor it yielded: only the changes made since, in their order, each once', async () => {
    const { client } = clientOf(feedApp, PRO_KEY);
    const caughtUp = await collect(client.followChangeFeed());
    const resumeFrom = caughtUp.at(-1)!.cursor;
    await client.adjustInventory(BIG_ID, { delta: -1, reason: 'adjustment' });
    await client.adjustInventoryBatch([
      { petId: 1n, delta: 2, reason: 'arrival' },
      { petId: 3n, delta: 1, reason: 'return' },
    ]);
    await feedApp.history.caughtUp();

    const since = await collect(client.followChangeFeed({ cursor: resumeFrom }));
    const again = await collect(client.followChangeFeed({ cursor: since.at(-1)!.cursor }));

    // Three pets: the feed holds each pet's changes in its version order, and the pets interleaved as the stream brought them.
    expect(named(since).sort()).toEqual(['1.2', '3.2', `${BIG_ID}.2`]);
    expect(since.flatMap((batch) => batch.changes.map(({ delta }) => delta)).sort()).toEqual([-1, 1, 2]);
    expect(again).toEqual([]);
  });

  it('keeps polling with pollIntervalMs, yields each change as it is made, and ends quietly when its signal aborts', async () => {
    const { client } = clientOf(feedApp, PRO_KEY);
    const head = (await collect(client.followChangeFeed())).at(-1)!.cursor;
    const stop = new AbortController();
    const received: ChangeFeedBatch[] = [];
    let seen: () => void = () => undefined;
    const threeSeen = new Promise<void>((resolve) => {
      seen = resolve;
    });
    // A client with the real sleep: the follower waits its interval between polls.
    const follower = (async () => {
      const polling = createInventoryClient({ baseUrl: feedApp.baseUrl, apiKey: PRO_KEY });
      for await (const batch of polling.followChangeFeed({ cursor: head, pollIntervalMs: 50, signal: stop.signal })) {
        received.push(batch);
        if (named(received).length >= 3) seen();
      }
    })();

    for (const delta of [1, 2, 3]) await client.adjustInventory(4n, { delta, reason: 'arrival' });
    await threeSeen;
    stop.abort();
    await follower;

    expect(named(received)).toEqual(['4.2', '4.3', '4.4']);
    expect(received.flatMap((batch) => batch.changes.map((change) => change.quantityAfter))).toEqual([2, 4, 7]);
    // The last cursor resumes after the last change: nothing more is there.
    expect((await client.listInventoryChangeFeed({ cursor: received.at(-1)!.cursor })).data!.changes).toEqual([]);
  });

  it('throws ChangesPageError for a cursor the feed did not hand out, naming that cursor', async () => {
    const { client } = clientOf(feedApp, PRO_KEY);

    const failure = await collect(client.followChangeFeed({ cursor: 'not-a-cursor' })).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ChangesPageError);
    expect([(failure as ChangesPageError).error.code, (failure as ChangesPageError).cursor]).toEqual(['INVALID_QUERY', 'not-a-cursor']);
  });
});
