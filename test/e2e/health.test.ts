import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { StoreUnavailableError } from '../../functions/domain/errors.ts';
import { startLocalApp, type LocalApp } from '../../local/local-app.ts';
import { DEMO_INVENTORY } from '../../local/seed.ts';
import { testAppStore } from '../support/local-store.ts';
import { insideOneMinute } from '../support/minute-window.ts';

/** GET /v1/health on the local server: no key, not counted, no write, and a 503 when the store does not answer. */

const FREE_KEY = 'HealthFreeKey000000000000000001';
let app: LocalApp;

beforeAll(async () => {
  app = await startLocalApp({ ...testAppStore(), seed: DEMO_INVENTORY, devApiKey: FREE_KEY, devPlan: 'free' });
});
afterAll(async () => {
  await app?.close();
});

const health = () => fetch(`${app.baseUrl}/health`);

describe('GET /v1/health', () => {
  it('answers 200 without a key, saying the store answers, and is never cached', async () => {
    const response = await health();

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', store: 'ok' });
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('is not counted against any plan, and only reads the store', async () => {
    const data = vi.spyOn(app.dependencies.client, 'send');
    const counting = vi.spyOn(app.dependencies.countingClient, 'send');
    await insideOneMinute();

    for (let probe = 0; probe < 70; probe += 1) expect((await health()).status).toBe(200);
    const sentByProbes = data.mock.calls.map(([command]) => command.constructor.name);
    const countingCallsByProbes = counting.mock.calls.length;
    const counted = await fetch(`${app.baseUrl}/inventory`, { headers: { Authorization: `Bearer ${FREE_KEY}` } });

    expect(countingCallsByProbes).toBe(0);
    expect(new Set(sentByProbes)).toEqual(new Set([GetCommand.name]));
    // 70 probes, more than the free plan's 60 a minute, and the first counted request still has the whole minute.
    expect([counted.status, counted.headers.get('x-ratelimit-remaining')]).toEqual([200, '59']);
    data.mockRestore();
    counting.mockRestore();
  });

  it('answers 503 with the Error body and Retry-After when the store fails', async () => {
    vi.spyOn(app.dependencies.inventory, 'get').mockRejectedValueOnce(new StoreUnavailableError());

    const response = await health();

    expect([response.status, response.headers.get('retry-after')]).toEqual([503, '1']);
    expect(await response.json()).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The service is temporarily unavailable; retry after the time in Retry-After.',
      status: 503,
    });
  });

  it('answers 503 rather than hang when the store does not answer', async () => {
    vi.spyOn(app.dependencies.inventory, 'get').mockReturnValueOnce(new Promise(() => undefined));

    const response = await health();

    expect(response.status).toBe(503);
    expect(((await response.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');
  });
});
