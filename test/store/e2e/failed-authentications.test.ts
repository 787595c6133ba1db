import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../../functions/domain/api-keys.ts';
import { DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE } from '../../../functions/domain/failed-authentications.ts';
import { KeyAdmin } from '../../../local/key-admin.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { testAppStore } from '../../support/local-store.ts';
import { withinOneClockMinute } from '../../support/minute-window.ts';
import { expectAgreeingRateLimitFields, planPolicy } from '../../support/rate-limit-fields.ts';

const DEV_KEY = 'UnauthenticatedLimitsDevKey0123456789';
const LIMIT = DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE;

/** A key of a valid form (43 letters and digits) that no one was issued. */
const randomKey = () =>
  randomBytes(48)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 43);

async function startApp(): Promise<{ app: LocalApp; lookups: () => number; validKeyLookups: () => number }> {
  const app = await startLocalApp({
    ...testAppStore(),
    seed: [{ petId: 1n, quantity: 3, status: 'available' }],
    devApiKey: DEV_KEY,
    devPlan: 'pro',
  });
  // Every key lookup the authorizer makes goes through this repository method: count them, by key.
  const { apiKeys } = app.dependencies;
  const findByHash = apiKeys.findByHash.bind(apiKeys);
  const counts = new Map<string, number>();
  apiKeys.findByHash = (keyHash) => {
    counts.set(keyHash, (counts.get(keyHash) ?? 0) + 1);
    return findByHash(keyHash);
  };
  const validKeyHash = hashApiKey(DEV_KEY);
  return {
    app,
    lookups: () => [...counts].filter(([hash]) => hash !== validKeyHash).reduce((sum, [, count]) => sum + count, 0),
    validKeyLookups: () => counts.get(validKeyHash) ?? 0,
  };
}

function rateLimitOf(response: Response) {
  return {
    limit: response.headers.get('x-ratelimit-limit'),
    remaining: response.headers.get('x-ratelimit-remaining'),
    reset: response.headers.get('x-ratelimit-reset'),
  };
}

const minuteEnd = (atMs: number) => String(Math.floor(atMs / 60_000) * 60 + 60);

/** The second of the request, and of the answer: the span in which the answer's fields were made. */
const secondsFrom = (startedAt: number) => ({ from: Math.floor(startedAt / 1000), to: Math.floor(Date.now() / 1000) });

/** The address window, parsed from RateLimit-Policy and RateLimit, with what remains of it. */
const addressWindow = (remaining: number) => ({ name: 'failed-authentications', quota: LIMIT, seconds: 60, remaining });

describe('answers without a valid key, locally over HTTP', () => {
  let started: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    started = await startApp();
  });
  afterAll(async () => started.app.close());

  const call = (path: string, init: RequestInit = {}) => fetch(`${started.app.baseUrl}${path}`, init);

  // Room for a second run from a fresh minute (test/support/minute-window.ts).
  it('carry X-RateLimit-* of the source address: 401 for each kind of bad key or none, each counted; 404, openapi.json, docs and health, uncounted', {
    timeout: 240_000,
  }, async () => {
    const admin = new KeyAdmin(started.app.dependencies.apiKeys, started.app.dependencies.usageCounters);
    const issued = await admin.issue({ plan: 'free', owner: 'e2e' });
    await admin.revoke(issued.record.keyId);
    const revoked = issued.apiKey;

    await withinOneClockMinute(async () => {
      const startedAt = Date.now();
      const unknown = { Authorization: `Bearer ${randomKey()}` };
      const badKeys: [string, Record<string, string>][] = [
        ['missing', {}],
        ['malformed', { Authorization: 'Bearer not-a-key' }],
        ['another scheme', { Authorization: `Basic ${DEV_KEY}` }],
        ['unknown', unknown],
        ['revoked', { Authorization: `Bearer ${revoked}` }],
        ['the unknown one again', unknown],
      ];
      const remainings: number[] = [];
      for (const [kind, headers] of badKeys) {
        const response = await call('/inventory', { headers });
        expect(response.status, kind).toBe(401);
        expect(await response.json()).toEqual({ code: 'UNAUTHORIZED', message: expect.any(String), status: 401 });
        const { limit, remaining, reset } = rateLimitOf(response);
        expect({ kind, limit, reset }).toEqual({ kind, limit: String(LIMIT), reset: minuteEnd(startedAt) });
        expect(expectAgreeingRateLimitFields(Object.fromEntries(response.headers), secondsFrom(startedAt)), kind).toEqual([
          { ...addressWindow(Number(remaining)), secondsLeft: expect.any(Number) },
        ]);
        remainings.push(Number(remaining));
      }
      // Each request the authorizer refuses takes one from the address's window, whatever kind it is, no key and the same
      // unknown key again included: the authorizer answers every request (no results cache), each with the window as it stands.
      expect(remainings).toEqual([LIMIT - 1, LIMIT - 2, LIMIT - 3, LIMIT - 4, LIMIT - 5, LIMIT - 6]);

      const uncounted = [
        ['unknown route', await call('/no-such-route')],
        ['unknown method', await call('/inventory', { method: 'DELETE', headers: { Authorization: `Bearer ${DEV_KEY}` } })],
        ['openapi.json', await call('/openapi.json')],
        ['docs', await call('/docs')],
        ['health', await call('/health')],
      ] as const;
      for (const [what, response] of uncounted) {
        expect({ what, status: response.status, ...rateLimitOf(response) }).toEqual({
          what,
          status: what.startsWith('unknown') ? 404 : 200,
          limit: String(LIMIT),
          remaining: String(LIMIT),
          reset: minuteEnd(startedAt),
        });
        expect(expectAgreeingRateLimitFields(Object.fromEntries(response.headers), secondsFrom(startedAt)), what).toEqual([
          { ...addressWindow(LIMIT), secondsLeft: expect.any(Number) },
        ]);
      }
      // And they took nothing from the window: the next failure is the seventh.
      const next = await call('/inventory');
      expect(rateLimitOf(next).remaining).toBe(String(LIMIT - 7));
    });
  });
});

describe('key spraying from one address', () => {
  let started: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    started = await startApp();
  });
  afterAll(async () => started.app.close());

  it(`answers 200 distinct bad keys 401, the first ${LIMIT} counted and the rest with nothing remaining until the minute ends, looking up at most ${LIMIT} keys; a valid key keeps its 200s and its own headers`, {
    timeout: 240_000,
  }, async () => {
    const call = (key: string) => fetch(`${started.app.baseUrl}/inventory`, { headers: { Authorization: `Bearer ${key}` } });
    await withinOneClockMinute(async () => {
      const startedAt = Date.now();
      const [lookupsBefore, validKeyLookupsBefore] = [started.lookups(), started.validKeyLookups()];
      // The valid key has been used from this address before the spraying starts.
      expect((await call(DEV_KEY)).status).toBe(200);
      const statuses: number[] = [];
      const validAnswers: { status: number; limit: string | null; remaining: number }[] = [];
      for (let sent = 0; sent < 200; sent += 1) {
        const response = await call(randomKey());
        statuses.push(response.status);
        const body = (await response.json()) as { code: string; status: number };
        expect(body).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
        if (sent >= LIMIT) {
          expect(rateLimitOf(response)).toMatchObject({ limit: String(LIMIT), remaining: '0', reset: minuteEnd(startedAt) });
          expect(response.headers.get('retry-after')).toBeNull();
        }
        if (sent % 20 === 19) {
          const validSentAt = Date.now();
          const valid = await call(DEV_KEY);
          await valid.arrayBuffer();
          const windows = expectAgreeingRateLimitFields(Object.fromEntries(valid.headers), secondsFrom(validSentAt));
          expect(windows.map(({ name, quota, seconds }) => ({ name, quota, seconds }))).toEqual(planPolicy(300, 10_000));
          validAnswers.push({
            status: valid.status,
            limit: valid.headers.get('x-ratelimit-limit'),
            remaining: Number(valid.headers.get('x-ratelimit-remaining')),
          });
        }
      }

      expect(statuses).toEqual(Array(200).fill(401));
      // The pro plan's 300 a minute: the key's own window, each answer one request further into it.
      expect(validAnswers.map(({ status, limit }) => ({ status, limit }))).toEqual(Array(10).fill({ status: 200, limit: '300' }));
      expect(validAnswers.map(({ remaining }) => remaining)).toEqual(
        [...validAnswers.map(({ remaining }) => remaining)].sort((a, b) => b - a),
      );
      expect(started.lookups() - lookupsBefore).toBeLessThanOrEqual(LIMIT);
      // Looked up once, before the spraying, and answered from the authorizer's memory since (none if a first run read it).
      expect(started.validKeyLookups() - validKeyLookupsBefore).toBeLessThanOrEqual(1);
    });
  });
});
