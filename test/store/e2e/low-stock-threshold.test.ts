import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { testAppStore } from '../../support/local-store.ts';

/** The low-stock threshold's operations over HTTP, against DynamoDB Local: answers, refusals, and what they write. */

const KEY = 'LowStockThresholdBusinessKey01';

describe('PUT, GET and DELETE /inventory/{petId}/low-stock-threshold', () => {
  let app: LocalApp;

  async function call(method: string, path: string, body?: string) {
    const response = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  beforeAll(async () => {
    app = await startLocalApp({
      ...testAppStore(),
      seed: [{ petId: 9_007_199_254_740_993n, quantity: 3, status: 'available' as const }],
      devApiKey: KEY,
      devPlan: 'business',
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  const path = '/inventory/9007199254740993/low-stock-threshold';

  it('answers 404 LOW_STOCK_THRESHOLD_NOT_FOUND before a threshold is set, then sets, reads and removes it', async () => {
    expect(await call('GET', path)).toMatchObject({
      status: 404,
      body: { code: 'LOW_STOCK_THRESHOLD_NOT_FOUND', message: 'Pet 9007199254740993 has no low-stock threshold.', status: 404 },
    });
    const set = await call('PUT', path, '{"threshold": 5}');
    expect(set).toMatchObject({ status: 200 });
    // The int64 id exact, as every answer writes it.
    expect(await (await fetch(`${app.baseUrl}${path}`, { headers: { Authorization: `Bearer ${KEY}` } })).text()).toBe(
      '{"petId":9007199254740993,"threshold":5}',
    );
    expect(set.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(set.headers.get('x-api-stability')).toBe('experimental');
    expect(await call('PUT', path, '{"threshold": 0}')).toMatchObject({ status: 200 });
    expect(await call('GET', path)).toMatchObject({ status: 200 });

    const removed = await call('DELETE', path);
    expect(removed.status).toBe(204);
    expect(removed.body).toBeUndefined();
    expect(removed.headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect(await call('GET', path)).toMatchObject({ status: 404, body: { code: 'LOW_STOCK_THRESHOLD_NOT_FOUND' } });
    // Removing it again is no error: a retried DELETE.
    expect((await call('DELETE', path)).status).toBe(204);
  });

  it('changes neither the stock nor the version', async () => {
    const before = await fetch(`${app.baseUrl}/inventory/9007199254740993`, { headers: { Authorization: `Bearer ${KEY}` } });
    await call('PUT', path, '{"threshold": 7}');
    await call('DELETE', path);
    const after = await fetch(`${app.baseUrl}/inventory/9007199254740993`, { headers: { Authorization: `Bearer ${KEY}` } });
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    expect(await after.text()).toBe(await before.text());
  });

  it.each(['PUT', 'GET', 'DELETE'])('%s answers 404 PET_NOT_FOUND for a pet without an entry, and writes nothing', async (method) => {
    const answer = await call(method, '/inventory/424242/low-stock-threshold', method === 'PUT' ? '{"threshold": 5}' : undefined);
    expect(answer).toMatchObject({
      status: 404,
      body: { code: 'PET_NOT_FOUND', message: 'No inventory entry exists for pet 424242.', status: 404 },
    });
    expect((await call('GET', '/inventory/424242')).status).toBe(404);
  });

  it.each([
    ['{}', 'INVALID_BODY'],
    ['{"threshold": -1}', 'INVALID_BODY'],
    ['{"threshold": 2.5}', 'INVALID_BODY'],
    ['{"threshold": "5"}', 'INVALID_BODY'],
    ['{"threshold": 2147483648}', 'INVALID_BODY'],
    ['{"threshold": 5, "quantity": 1}', 'INVALID_BODY'],
    ['{"threshold": ', 'MALFORMED_JSON'],
  ])('answers 400 with the Error body for the body %s, and sets nothing', async (body, code) => {
    await call('DELETE', path);
    const answer = await call('PUT', path, body);
    expect(answer).toMatchObject({ status: 400, body: { code, status: 400 } });
    expect((await call('GET', path)).status).toBe(404);
  });

  it('answers 400 INVALID_PET_ID for a petId that is not canonical', async () => {
    expect(await call('PUT', '/inventory/007/low-stock-threshold', '{"threshold": 5}')).toMatchObject({
      status: 400,
      body: { code: 'INVALID_PET_ID' },
    });
  });
});
