import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInventoryClient, type InventoryClientOptions, type RetryEvent } from '../../../client/index.ts';
import { isIdempotent, retryingFetch } from '../../../client/retry.ts';

/** The retry schedule under a fake clock: sleep and jitter are injected, nothing waits for real. */

const ITEM = '[{"petId":1,"quantity":2,"status":"available"}]';
const ERROR = (status: number, code: string) => JSON.stringify({ code, message: code, status });

function answer(status: number, headers: Record<string, string> = {}, body = status < 400 ? ITEM : ERROR(status, 'SOME_ERROR')): Response {
  return new Response(body, { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/** A server that gives these answers in turn (an Error is thrown as a network failure) and records what it was sent. */
function scripted(...outcomes: (Response | Error)[]) {
  const requests: { method: string; body: string }[] = [];
  const idempotencyKeys: (string | null)[] = [];
  const fetch = vi.fn(async (request: Request) => {
    requests.push({ method: request.method, body: await request.text() });
    idempotencyKeys.push(request.headers.get('Idempotency-Key'));
    const outcome = outcomes.shift();
    if (!outcome) throw new Error('no more scripted answers');
    if (outcome instanceof Error) throw outcome;
    return outcome;
  });
  return { fetch, requests, idempotencyKeys };
}

function clientFor(server: ReturnType<typeof scripted>, overrides: Partial<InventoryClientOptions> = {}) {
  const sleeps: number[] = [];
  const retries: RetryEvent[] = [];
  const client = createInventoryClient({
    baseUrl: 'https://api.petstore.example/v1',
    apiKey: 'TestKey000000000000000000001',
    fetch: server.fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    onRetry: (retry) => retries.push(retry),
    ...overrides,
  });
  return { client, sleeps, retries };
}

const networkError = () => new TypeError('fetch failed');

afterEach(() => {
  vi.useRealTimers();
});

describe('on 5xx and network errors, idempotent calls', () => {
  it('retry with exponential backoff and full jitter, then succeed', async () => {
    const server = scripted(answer(503), answer(502), answer(500), answer(200));
    const { client, sleeps } = clientFor(server, { maxAttempts: 4, baseDelayMs: 100 });

    const result = await client.listInventory();

    expect(result.status).toBe(200);
    expect(server.fetch).toHaveBeenCalledTimes(4);
    // random() = 0.5 of ceilings 100, 200, 400 ms.
    expect(sleeps).toEqual([50, 100, 200]);
  });

  it('draw each delay uniformly below the ceiling, which doubles up to maxDelayMs', async () => {
    const draws = [0, 0.999, 0.25, 0.999];
    const server = scripted(answer(503), answer(503), answer(503), answer(503), answer(200));
    const { client, sleeps } = clientFor(server, { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 300, random: () => draws.shift()! });

    await client.listInventory();

    // Ceilings 100, 200, 300 (capped from 400), 300 (capped from 800).
    expect(sleeps).toEqual([0, 199, 75, 299]);
  });

  it('wait at least a Retry-After the 503 carries', async () => {
    const server = scripted(answer(503, { 'Retry-After': '2' }), answer(200));
    const { client, sleeps } = clientFor(server);

    await client.listInventory();

    expect(sleeps).toEqual([2_000]);
  });

  it('retry network errors, and resolve to NETWORK_ERROR when attempts run out', async () => {
    const server = scripted(networkError(), networkError(), networkError());
    const { client, retries } = clientFor(server, { maxAttempts: 3 });

    const result = await client.getPetById(1n);

    expect(result.error).toEqual({ code: 'NETWORK_ERROR', message: 'The API could not be reached (fetch failed).', status: 0 });
    expect(server.fetch).toHaveBeenCalledTimes(3);
    expect(retries.map(({ attempt, reason }) => [attempt, String(reason)])).toEqual([
      [1, 'TypeError: fetch failed'],
      [2, 'TypeError: fetch failed'],
    ]);
  });

  it('stop after maxAttempts and hand back the last answer', async () => {
    const server = scripted(answer(503), answer(503));
    const { client } = clientFor(server, { maxAttempts: 2 });

    const result = await client.listInventory();

    expect([result.status, result.error?.code]).toEqual([503, 'SOME_ERROR']);
    expect(server.fetch).toHaveBeenCalledTimes(2);
  });

  it('include updateInventory, sent with an Idempotency-Key so that a compare-and-set retried after a lost answer replays: the same body and key are sent again', async () => {
    const server = scripted(answer(503), answer(200, {}, '{"petId":9007199254740993,"quantity":5,"status":"available"}'));
    const { client } = clientFor(server);

    const result = await client.updateInventory(9_007_199_254_740_993n, { quantity: 5, changeFromQuantity: 4 });

    expect(result.data?.petId).toBe(9_007_199_254_740_993n);
    expect(server.requests).toEqual([
      { method: 'PATCH', body: '{"quantity":5,"changeFromQuantity":4}' },
      { method: 'PATCH', body: '{"quantity":5,"changeFromQuantity":4}' },
    ]);
    expect(server.idempotencyKeys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.idempotencyKeys[1]).toBe(server.idempotencyKeys[0]);
  });

  it("send updateInventory with the caller's own Idempotency-Key when given one, a new one per call otherwise", async () => {
    const answered = () => answer(200, {}, '{"petId":1,"quantity":5,"status":"available"}');
    const server = scripted(answered(), answered(), answered());
    const { client } = clientFor(server);

    await client.updateInventory(1n, { quantity: 5 }, { idempotencyKey: 'my-key' });
    await client.updateInventory(1n, { quantity: 5 });
    await client.updateInventory(1n, { quantity: 5 });

    expect(server.idempotencyKeys[0]).toBe('my-key');
    expect(server.idempotencyKeys[1]).not.toBe(server.idempotencyKeys[2]);
  });
});

describe('a PATCH sent without an Idempotency-Key', () => {
  it('is not retried on 5xx or network errors: a compare-and-set repeated without a key meets its own write', async () => {
    const failing = scripted(answer(503));
    const transport = retryingFetch({
      maxAttempts: 3,
      baseDelayMs: 100,
      maxDelayMs: 1_000,
      maxRetryAfterSeconds: 60,
      idempotent: isIdempotent,
      fetch: failing.fetch,
      sleep: vi.fn(async () => undefined),
      random: () => 0.5,
      now: Date.now,
    });
    const patch = new Request('https://api.petstore.example/v1/inventory/1', {
      method: 'PATCH',
      body: '{"quantity":5,"changeFromQuantity":4}',
    });

    expect((await transport(patch)).status).toBe(503);
    expect(failing.fetch).toHaveBeenCalledTimes(1);
  });
});

describe('a request that is not idempotent (POST)', () => {
  const post = () => new Request('https://api.petstore.example/v1/orders', { method: 'POST', body: '{}' });
  const transport = (server: ReturnType<typeof scripted>, sleep = vi.fn(async () => undefined)) =>
    retryingFetch({
      maxAttempts: 3,
      baseDelayMs: 100,
      maxDelayMs: 1_000,
      maxRetryAfterSeconds: 60,
      idempotent: isIdempotent,
      fetch: server.fetch,
      sleep,
      random: () => 0.5,
      now: Date.now,
    });

  it('is not retried on 5xx or network errors: it may have run', async () => {
    const failing = scripted(answer(503));
    const unreachable = scripted(networkError());

    expect((await transport(failing)(post())).status).toBe(503);
    await expect(transport(unreachable)(post())).rejects.toThrow('fetch failed');
    expect([failing.fetch.mock.calls.length, unreachable.fetch.mock.calls.length]).toEqual([1, 1]);
  });

  it('is retried after a 429, which says the request was refused, not run', async () => {
    const server = scripted(answer(429, { 'Retry-After': '1' }), answer(201, {}, '{}'));
    const sleep = vi.fn(async () => undefined);

    expect((await transport(server, sleep)(post())).status).toBe(201);
    expect(sleep).toHaveBeenCalledWith(1_000, expect.any(AbortSignal));
  });
});

describe('on 429', () => {
  it('waits for Retry-After before retrying (fake timers, the default sleep)', async () => {
    vi.useFakeTimers();
    const server = scripted(answer(429, { 'Retry-After': '3' }), answer(200));
    const client = createInventoryClient({
      baseUrl: 'https://api.petstore.example/v1',
      apiKey: 'TestKey000000000000000000001',
      fetch: server.fetch,
    });

    const pending = client.listInventory();
    await vi.advanceTimersByTimeAsync(2_999);
    const callsBeforeRetryAfter = server.fetch.mock.calls.length;
    await vi.advanceTimersByTimeAsync(1);

    expect(callsBeforeRetryAfter).toBe(1);
    expect((await pending).status).toBe(200);
    expect(server.fetch).toHaveBeenCalledTimes(2);
  });

  it('reads Retry-After given as an HTTP-date', async () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    const server = scripted(answer(429, { 'Retry-After': 'Sat, 21 Nov 2026 12:00:05 GMT' }), answer(200));
    const { client, sleeps } = clientFor(server, { now: () => now });

    await client.listInventory();

    expect(sleeps).toEqual([5_000]);
  });

  it('hands back a Retry-After longer than maxRetryAfterSeconds instead of waiting it out', async () => {
    const server = scripted(
      answer(429, { 'Retry-After': '3600', 'X-RateLimit-Limit': '1000', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1795305600' }),
    );
    const { client, sleeps } = clientFor(server, { maxRetryAfterSeconds: 60 });

    const result = await client.listInventory();

    expect(sleeps).toEqual([]);
    expect(result.rateLimit).toEqual({
      limit: 1000,
      remaining: 0,
      resetAt: 1_795_305_600,
      // A server without the structured fields: the one window of X-RateLimit-*.
      windows: [{ name: undefined, limit: 1000, windowSeconds: undefined, remaining: 0, resetInSeconds: undefined }],
    });
    expect(result.retryAfterSeconds).toBe(3600);
  });

  it('reads every window from RateLimit and RateLimit-Policy, beside the X-RateLimit-* window closest to exhaustion', async () => {
    const server = scripted(
      answer(200, {
        'X-RateLimit-Limit': '60',
        'X-RateLimit-Remaining': '59',
        'X-RateLimit-Reset': '1795305600',
        'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
        RateLimit: '"minute";r=59;t=41, "day";r=998;t=49241',
      }),
    );

    const result = await clientFor(server).client.listInventory();

    expect(result.rateLimit).toEqual({
      limit: 60,
      remaining: 59,
      resetAt: 1_795_305_600,
      windows: [
        { name: 'minute', limit: 60, windowSeconds: 60, remaining: 59, resetInSeconds: 41 },
        { name: 'day', limit: 1000, windowSeconds: 86_400, remaining: 998, resetInSeconds: 49_241 },
      ],
    });
  });

  it('reads the structured fields alone where an answer lacks X-RateLimit-*, and ignores malformed ones as the draft says', async () => {
    const structuredOnly = scripted(
      answer(200, { 'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400', RateLimit: '"minute";r=5;t=30, "day";r=900;t=600' }),
    );
    const malformed = scripted(
      answer(200, {
        'X-RateLimit-Limit': '60',
        'X-RateLimit-Remaining': '59',
        'X-RateLimit-Reset': '1795305600',
        RateLimit: 'minute;r=59;t=41, ;;',
      }),
    );
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);

    const fromFields = await clientFor(structuredOnly, { now: () => now }).client.listInventory();
    const fromLegacy = await clientFor(malformed).client.listInventory();

    expect(fromFields.rateLimit).toMatchObject({ limit: 60, remaining: 5, resetAt: now / 1000 + 30 });
    expect(fromFields.rateLimit!.windows).toHaveLength(2);
    expect(fromLegacy.rateLimit).toMatchObject({ limit: 60, remaining: 59, resetAt: 1_795_305_600, windows: [{ name: undefined }] });
  });

  it("reports Retry-After even on an answer without rate-limit headers (API Gateway's own 429)", async () => {
    const server = scripted(answer(429, { 'Retry-After': '3600' }));
    const { client } = clientFor(server, { maxRetryAfterSeconds: 60 });

    const result = await client.listInventory();

    expect(result.rateLimit).toBeUndefined();
    expect(result.retryAfterSeconds).toBe(3600);
  });

  it('backs off exponentially on 429s that repeat, never sooner than Retry-After', async () => {
    const server = scripted(
      answer(429, { 'Retry-After': '1' }),
      answer(429, { 'Retry-After': '1' }),
      answer(429, { 'Retry-After': '1' }),
      answer(200),
    );
    const { client, sleeps } = clientFor(server, { maxAttempts: 4, baseDelayMs: 1_000, random: () => 1 });

    await client.listInventory();

    expect(sleeps).toEqual([1_000, 2_000, 4_000]);
  });
});

describe('other 4xx', () => {
  it.each([400, 401, 404, 413, 415, 422])('%i is never retried', async (status) => {
    const server = scripted(answer(status));
    const { client, sleeps } = clientFor(server);

    const result = await client.getPetById(1n);

    expect([result.status, sleeps, server.fetch.mock.calls.length]).toEqual([status, [], 1]);
  });
});

describe('the deadline and the signal', () => {
  it('hand back a 429 at once when its Retry-After would end after the deadline', async () => {
    const server = scripted(answer(429, { 'Retry-After': '5' }), answer(200));
    const { client, sleeps } = clientFor(server, { timeoutMs: 2_000 });

    const result = await client.listInventory();

    expect([result.status, result.error?.code, result.retryAfterSeconds, sleeps]).toEqual([429, 'SOME_ERROR', 5, []]);
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it('resolve to TIMEOUT when no answer comes before the deadline (fake timers)', async () => {
    vi.useFakeTimers();
    const hanging = vi.fn(
      (request: Request) =>
        new Promise<Response>((_resolve, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason))),
    );
    const client = createInventoryClient({
      baseUrl: 'https://api.petstore.example/v1',
      apiKey: 'TestKey000000000000000000001',
      fetch: hanging,
      timeoutMs: 1_000,
    });

    const pending = client.listInventory();
    await vi.advanceTimersByTimeAsync(1_000);

    expect(await pending).toEqual({
      status: 0,
      rateLimit: undefined,
      requestId: undefined,
      response: undefined,
      error: { code: 'TIMEOUT', message: 'The call did not end within its deadline (timeoutMs).', status: 0 },
    });
  });

  it('resolve to ABORTED when the caller aborts, also during a backoff wait', async () => {
    const caller = new AbortController();
    const server = scripted(answer(503), answer(200));
    const client = createInventoryClient({
      baseUrl: 'https://api.petstore.example/v1',
      apiKey: 'TestKey000000000000000000001',
      fetch: server.fetch,
      onRetry: () => caller.abort(),
    });

    const result = await client.listInventory({ signal: caller.signal });

    expect([result.status, result.error?.code]).toEqual([0, 'ABORTED']);
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it("report UNEXPECTED_RESPONSE for an answer that is not the contract's Error, with its status", async () => {
    const server = scripted(
      new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'Content-Type': 'text/html' } }),
    );
    const { client } = clientFor(server, { maxAttempts: 1 });

    const result = await client.listInventory();

    expect(result.error).toEqual({
      code: 'UNEXPECTED_RESPONSE',
      message: "HTTP 502 Bad Gateway: the answer is not the API's Error JSON.",
      status: 502,
    });
  });

  it("report the request id of every answer: X-Request-Id, else API Gateway's x-amzn-RequestId", async () => {
    const server = scripted(
      answer(200, { 'x-amzn-RequestId': 'gw-1' }),
      answer(404, { 'X-Request-Id': 'own-2', 'x-amzn-RequestId': 'gw-2' }),
    );
    const { client } = clientFor(server);

    expect((await client.listInventory()).requestId).toBe('gw-1');
    expect((await client.getPetById(1n)).requestId).toBe('own-2');
  });
});

describe('adjustInventory', () => {
  it('is retried on 5xx with the same Idempotency-Key, which makes the POST safe to repeat', async () => {
    const keys: (string | null)[] = [];
    const server = scripted(answer(503), answer(200, {}, '{"petId":7,"quantity":5,"status":"available"}'));
    const { client } = clientFor(server, {
      fetch: (request) => {
        keys.push(request.headers.get('Idempotency-Key'));
        return server.fetch(request);
      },
    });

    const result = await client.adjustInventory(7n, { delta: 3, reason: 'arrival' }, { idempotencyKey: 'arrival-2026-11-22-7' });

    expect(result.data).toEqual({ petId: 7n, quantity: 5, status: 'available' });
    expect(keys).toEqual(['arrival-2026-11-22-7', 'arrival-2026-11-22-7']);
  });
});
