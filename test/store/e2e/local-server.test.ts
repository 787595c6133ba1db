import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryCount } from '../../../functions/domain/schemas.ts';
import { KeyAdmin } from '../../../local/key-admin.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { allEntries } from '../../support/inventory.ts';
import { testAppStore } from '../../support/local-store.ts';
import { withinOneClockMinute } from '../../support/minute-window.ts';
import { expectAgreeingRateLimitFields, planPolicy } from '../../support/rate-limit-fields.ts';
import { propertyRuns } from '../../support/property-runs.ts';

const DEV_KEY = 'E2eDevKey0123456789abcdefghijklmnop';
const SEED: InventoryCount[] = [
  { petId: 1n, quantity: 10, status: 'available' },
  { petId: 2n, quantity: 0, status: 'sold' },
  { petId: 9_007_199_254_740_993n, quantity: 4, status: 'pending' },
  { petId: 9_223_372_036_854_775_807n, quantity: 1, status: 'available' },
];

let app: LocalApp;
let admin: KeyAdmin;
let roomyKey: string;

beforeAll(async () => {
  app = await startLocalApp({ ...testAppStore(), seed: SEED, devApiKey: DEV_KEY, devPlan: 'business' });
  admin = new KeyAdmin(app.dependencies.apiKeys, app.dependencies.usageCounters);
  // Property runs send hundreds of requests; this key's limits keep them out of 429 territory.
  roomyKey = (await admin.issue({ plan: 'enterprise', owner: 'e2e', customLimits: { perMinute: 100_000, perDay: 1_000_000 } })).apiKey;
});
afterAll(async () => app.close());

function call(
  path: string,
  init: { method?: string; key?: string | null; body?: string; contentType?: string; authorization?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (init.authorization !== undefined) headers.Authorization = init.authorization;
  else if (init.key !== null) headers.Authorization = `Bearer ${init.key ?? DEV_KEY}`;
  if (init.body !== undefined) headers['Content-Type'] = init.contentType ?? 'application/json';
  return fetch(`${app.baseUrl}${path}`, { method: init.method ?? 'GET', headers, ...(init.body !== undefined ? { body: init.body } : {}) });
}

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toEqual({ code, message: expect.any(String), status });
  expect(JSON.stringify(body)).not.toMatch(/\n\s+at |node_modules/);
}

/** The business plan of DEV_KEY, as RateLimit-Policy states it. */
const BUSINESS_POLICY = planPolicy(1_000, 100_000);

/** X-RateLimit-* of the key's window closest to exhaustion, and RateLimit-Policy and RateLimit of both its plan's windows, agreeing. */
function expectRateLimitHeaders(response: Response, sentAt: number, policy = BUSINESS_POLICY) {
  expect(response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
  expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  expect(response.headers.get('x-ratelimit-reset')).toMatch(/^\d{10}$/);
  const windows = expectAgreeingRateLimitFields(Object.fromEntries(response.headers), {
    from: Math.floor(sentAt / 1000),
    to: Math.floor(Date.now() / 1000),
  });
  expect(windows.map(({ name, quota, seconds }) => ({ name, quota, seconds }))).toEqual(policy);
  return windows;
}

describe('GET /v1/inventory', () => {
  it('answers 200 with every entry sorted by petId, ids exact beyond 2^53, and the rate-limit headers', async () => {
    const sentAt = Date.now();
    const response = await call('/inventory');

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toContain(
      '{"petId":9007199254740993,"quantity":4,"status":"pending","reserved":0,"available":4},{"petId":9223372036854775807,',
    );
    expect(response.headers.get('x-ratelimit-limit')).toBe('1000');
    expectRateLimitHeaders(response, sentAt);
  });
});

describe('PATCH /v1/inventory/{petId}', () => {
  it('answers 200 with the updated entry, exact for the largest int64 id', async () => {
    const sentAt = Date.now();
    const response = await call('/inventory/9223372036854775807', { method: 'PATCH', body: '{"quantity": 42}' });

    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"petId":9223372036854775807,"quantity":42,"status":"available","reserved":0,"available":42}');
    expectRateLimitHeaders(response, sentAt);
    expect(await call('/inventory').then((listed) => listed.text())).toContain(
      '{"petId":9223372036854775807,"quantity":42,"status":"available","reserved":0,"available":42}',
    );
  });

  it('answers 404 for a pet with no entry, and creates none', async () => {
    const sentAt = Date.now();
    const response = await call('/inventory/123456', { method: 'PATCH', body: '{"quantity": 1}' });

    await expectError(response, 404, 'PET_NOT_FOUND');
    expectRateLimitHeaders(response, sentAt);
    expect((await allEntries(app.dependencies.inventory)).map((item) => item.petId)).not.toContain(123456n);
  });

  it.each([
    ['invalid quantity', '/inventory/1', '{"quantity": -5}', 'application/json', 400, 'INVALID_BODY'],
    ['malformed JSON', '/inventory/1', '{"quantity":', 'application/json', 400, 'MALFORMED_JSON'],
    ['invalid petId', '/inventory/abc', '{"quantity": 1}', 'application/json', 400, 'INVALID_PET_ID'],
    ['petId beyond int64', '/inventory/9223372036854775808', '{"quantity": 1}', 'application/json', 400, 'INVALID_PET_ID'],
    ['a form body', '/inventory/1', 'quantity=1', 'application/x-www-form-urlencoded', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    [
      'an oversized body',
      '/inventory/1',
      JSON.stringify({ quantity: 1, pad: 'x'.repeat(5_000) }),
      'application/json',
      413,
      'PAYLOAD_TOO_LARGE',
    ],
  ])('answers %s with the Error body, the rate-limit headers, and no change', async (_case, path, body, contentType, status, code) => {
    const before = await allEntries(app.dependencies.inventory);

    const sentAt = Date.now();
    const response = await call(path, { method: 'PATCH', body, contentType });

    await expectError(response, status, code);
    expectRateLimitHeaders(response, sentAt);
    expect(await allEntries(app.dependencies.inventory)).toEqual(before);
  });
});

describe('authentication', () => {
  it.each([
    ['no Authorization header', { key: null }],
    ['another scheme', { authorization: `Basic ${DEV_KEY}` }],
    ['an empty bearer token', { authorization: 'Bearer ' }],
    ['an unknown key', { key: 'UnknownKey0123456789abcdefghijklmnop' }],
  ])('answers 401 for %s, on every operation', async (_case, init) => {
    await expectError(await call('/inventory', init), 401, 'UNAUTHORIZED');
    await expectError(await call('/inventory/1', { ...init, method: 'PATCH', body: '{"quantity": 3}' }), 401, 'UNAUTHORIZED');
    expect((await allEntries(app.dependencies.inventory)).find((item) => item.petId === 1n)?.quantity).not.toBe(3);
  });

  it('refuses a revoked key at once', async () => {
    const { apiKey, record } = await admin.issue({ plan: 'free', owner: 'soon revoked' });
    expect((await call('/inventory', { key: apiKey })).status).toBe(200);

    await admin.revoke(record.keyId);

    await expectError(await call('/inventory', { key: apiKey }), 401, 'UNAUTHORIZED');
  });

  it('never echoes the key', async () => {
    const response = await call('/inventory', { key: 'UnknownKey0123456789abcdefghijklmnop' });

    expect(await response.text()).not.toContain('UnknownKey');
  });
});

describe('routing', () => {
  it.each([
    ['an unknown path', '/pets-and-more', 'GET'],
    ['a path outside the stage', '/../inventory', 'GET'],
    ['an unsupported method', '/inventory', 'DELETE'],
    ['a missing petId', '/inventory/', 'PATCH'],
  ])('answers 404 ROUTE_NOT_FOUND for %s', async (_case, path, method) => {
    await expectError(await call(path, { method }), 404, 'ROUTE_NOT_FOUND');
  });

  it.each(['', '/'])(
    'answers GET of the base URL the server prints (%j after /v1) with links to the docs, the contract and the health check, without a key',
    async (tail) => {
      const response = await fetch(`${app.baseUrl}${tail}`);

      expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/json']);
      expect(await response.json()).toEqual({
        docs: `${app.baseUrl}/docs`,
        openapi: `${app.baseUrl}/openapi.json`,
        health: `${app.baseUrl}/health`,
      });
    },
  );

  it.each(['/inventory', '/inventory/1', '/openapi.json', ''])('answers HEAD of %j as GET, without a body', async (path) => {
    const [head, get] = await Promise.all([call(path, { method: 'HEAD' }), call(path)]);

    expect([head.status, await head.text(), head.headers.get('content-type'), head.headers.get('etag')]).toEqual([
      get.status,
      '',
      get.headers.get('content-type'),
      get.headers.get('etag'),
    ]);
    expect(get.status).toBe(200);
  });
});

describe('plan limits over HTTP', () => {
  // Room for a second run from a fresh minute (test/support/minute-window.ts).
  it('answers the 61st request of a free key within a minute with 429, Retry-After and its own code', { timeout: 240_000 }, () =>
    withinOneClockMinute(async () => {
      const { apiKey } = await admin.issue({ plan: 'free', owner: 'burst' });
      const sentAt = Date.now();
      const responses = await Promise.all(Array.from({ length: 61 }, () => call('/inventory', { key: apiKey })));

      const statuses = responses.map((response) => response.status).sort();
      expect(statuses.filter((status) => status === 200)).toHaveLength(60);
      const limited = responses.find((response) => response.status === 429)!;
      await expectError(limited, 429, 'RATE_LIMIT_EXCEEDED');
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      // The minute's item says r=0; the day, untouched by the refusal, what the 60 admitted left.
      const [minute, day] = expectRateLimitHeaders(limited, sentAt, planPolicy(60, 1_000));
      expect([minute!.remaining, day!.remaining]).toEqual([0, 940]);
      expect(minute!.secondsLeft).toBeLessThanOrEqual(Number(limited.headers.get('retry-after')));
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      const remaining = responses
        .filter((response) => response.status === 200)
        .map((response) => Number(response.headers.get('x-ratelimit-remaining')));
      expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, index) => index));
    }),
  );
});

describe('bad input, generated (fast-check)', () => {
  const validPetIds = SEED.map((item) => item.petId.toString());
  const petIdText = fc.oneof(
    fc.constantFrom(...validPetIds),
    fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
    fc.string({ maxLength: 25 }),
    fc.constantFrom('0', '007', '1e3', '1.0', ' 1', '+1', '0x1F', '%00', '..'),
  );
  const bodyText = fc.oneof(
    fc.json({ maxDepth: 3 }),
    fc.string({ maxLength: 60 }),
    fc
      .record({ quantity: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.boolean(), fc.constant(null)) })
      .map((value) => JSON.stringify(value)),
    fc.integer({ min: 0, max: 2_147_483_647 }).map((quantity) => JSON.stringify({ quantity })),
  );

  it('never answers 5xx, always answers the Error shape, and changes data only on 200', async () => {
    await fc.assert(
      fc.asyncProperty(petIdText, bodyText, async (petId, body) => {
        const before = await allEntries(app.dependencies.inventory);

        const response = await call(`/inventory/${encodeURIComponent(petId)}`, { method: 'PATCH', body, key: roomyKey });
        const text = await response.text();

        expect(response.status).toBeLessThan(500);
        const after = await allEntries(app.dependencies.inventory);
        if (response.status !== 200) {
          expect(JSON.parse(text)).toEqual({ code: expect.any(String), message: expect.any(String), status: response.status });
          expect(after).toEqual(before);
          return;
        }
        const updated = JSON.parse(text, (key, value: unknown, context?: { source?: string }) =>
          key === 'petId' ? BigInt(context!.source!) : value,
        ) as InventoryCount;
        expect(updated.petId.toString()).toBe(petId);
        expect(after).toEqual(before.map((item) => (item.petId === updated.petId ? { ...item, quantity: updated.quantity } : item)));
      }),
      propertyRuns({ numRuns: 150 }),
    );
  });
});
