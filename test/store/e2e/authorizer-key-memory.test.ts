import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../../functions/domain/api-keys.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { KeyAdmin } from '../../../local/key-admin.ts';
import { testAppStore } from '../../support/local-store.ts';
import { sendRaw } from '../../support/raw-http.ts';

const DEV_KEY = 'AuthorizerKeyMemoryDevKey0123456789ab';

/**
 * The authorizer runs on every request, as on AWS, and keeps what it read of a key for a minute
 * (functions/domain/known-api-keys.ts), against DynamoDB Local: what a key is refused, and when,
 * while the authorizer still knows it as active.
 */
describe("the authorizer's memory of keys, locally as on AWS", () => {
  let app: LocalApp;
  let admin: KeyAdmin;
  /** The authorizer's key lookups, by key hash: each one a request that its memory did not answer. */
  const lookups = new Map<string, number>();
  const lookupsOf = (apiKey: string) => lookups.get(hashApiKey(apiKey)) ?? 0;

  beforeAll(async () => {
    app = await startLocalApp({
      ...testAppStore(),
      seed: [{ petId: 1n, quantity: 3, status: 'available' }],
      devApiKey: DEV_KEY,
      devPlan: 'free',
    });
    const { apiKeys, usageCounters } = app.dependencies;
    admin = new KeyAdmin(apiKeys, usageCounters);
    const findByHash = apiKeys.findByHash.bind(apiKeys);
    apiKeys.findByHash = (keyHash) => {
      lookups.set(keyHash, (lookups.get(keyHash) ?? 0) + 1);
      return findByHash(keyHash);
    };
  });
  afterAll(async () => app.close());

  const call = (apiKey: string) => fetch(`${app.baseUrl}/inventory/1`, { headers: { Authorization: `Bearer ${apiKey}` } });

  it('looks a key up once and answers its next requests from memory, each counted in its own windows', async () => {
    const { apiKey } = await admin.issue({ plan: 'free', owner: 'known' });

    const answers = [await call(apiKey), await call(apiKey), await call(apiKey)];

    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual(['59', '58', '57']);
    expect(lookupsOf(apiKey)).toBe(1);
  });

  it('refuses a revoked key on its next request though the authorizer still knows it as active: the counting write refuses it', async () => {
    const { apiKey, record } = await admin.issue({ plan: 'free', owner: 'revoked while known' });
    expect((await call(apiKey)).status).toBe(200);

    await admin.revoke(record.keyId);
    const refused = await call(apiKey);

    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ code: 'UNAUTHORIZED', message: expect.any(String), status: 401 });
    expect(refused.headers.get('x-ratelimit-limit')).toBe('60');
    expect(refused.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    // The key's own windows: the request was identified (allowed by the authorizer), then refused by the counting write.
    expect(refused.headers.get('ratelimit-policy')).toBe('"minute";q=60;w=60, "day";q=1000;w=86400');
    // No second lookup: the authorizer allowed the key from memory, and the function refused it.
    expect(lookupsOf(apiKey)).toBe(1);
  });

  it('refuses a banned key on its next request though the authorizer allows it, and serves it once the ban is lifted', async () => {
    const { apiKey, record } = await admin.issue({ plan: 'free', owner: 'banned while known' });
    expect((await call(apiKey)).status).toBe(200);

    await app.dependencies.usageCounters.ban(record.keyId, Math.floor(Date.now() / 1000) + 600);
    const banned = await call(apiKey);
    await admin.unban(record.keyId);
    const served = await call(apiKey);

    expect(banned.status).toBe(429);
    expect(await banned.json()).toMatchObject({ code: 'API_KEY_TEMPORARILY_BANNED', status: 429 });
    expect(Number(banned.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(banned.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(served.status).toBe(200);
    expect(lookupsOf(apiKey)).toBe(1);
  });

  it('refuses two Authorization headers though the authorizer knows the key, with the address window', async () => {
    expect((await call(DEV_KEY)).status).toBe(200);
    const port = Number(new URL(app.baseUrl).port);
    const twice = `GET /v1/inventory/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${DEV_KEY}\r\nAuthorization: Bearer ${DEV_KEY}\r\nConnection: close\r\n\r\n`;

    const answer = await sendRaw(port, twice);

    expect(answer).toMatchObject({ status: 401 });
    if (typeof answer === 'string') return;
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(answer.headers.get('x-ratelimit-limit')).toBe('60');
    // The authorizer refused it (the address window), as a request with one header of a known key would have been allowed.
    expect(answer.headers.get('ratelimit-policy')).toBe('"failed-authentications";q=60;w=60');
    expect(lookupsOf(DEV_KEY)).toBe(1);
  });
});
