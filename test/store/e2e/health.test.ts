import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreUnavailableError } from '../../../functions/domain/errors.ts';
import { HEALTH_OUTCOME_TTL_MS } from '../../../functions/domain/health.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { DEMO_INVENTORY } from '../../../contract/demo-inventory.ts';
import { testAppStore } from '../../support/local-store.ts';
import { insideOneMinute } from '../../support/minute-window.ts';

/** GET /v1/health on the local server: no key, not counted, no write, and a 503 when the store does not answer. */

const FREE_KEY = 'HealthFreeKey000000000000000001';
let app: LocalApp;

beforeAll(async () => {
  // More checks a minute than the default bound per address allows, for the tests that send many.
  app = await startLocalApp({
    ...testAppStore(),
    seed: DEMO_INVENTORY,
    devApiKey: FREE_KEY,
    devPlan: 'free',
    failedAuthenticationsPerMinute: 1_000,
    // The sweep's Query every few seconds is not a probe's: it would land among the reads the probes are judged by.
    reservationSweepMs: false,
  });
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
    await sleep(HEALTH_OUTCOME_TTL_MS);

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
    // The outcome of the last probe answers for a second: the next one reads the store.
    await sleep(HEALTH_OUTCOME_TTL_MS);
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
    await sleep(HEALTH_OUTCOME_TTL_MS);
    vi.spyOn(app.dependencies.inventory, 'get').mockReturnValueOnce(new Promise(() => undefined));

    const response = await health();

    expect(response.status).toBe(503);
    expect(((await response.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');
  });

  it('answers HEAD as GET, without a body', async () => {
    const [head, get] = await Promise.all([fetch(`${app.baseUrl}/health`, { method: 'HEAD' }), health()]);

    expect([head.status, await head.text(), head.headers.get('content-type')]).toEqual([200, '', 'application/json']);
    expect(get.status).toBe(200);
  });

  it('bounds each source address to the failed authentications allowed a minute: 429 with Retry-After past it', async () => {
    const bounded = await startLocalApp({ ...testAppStore(), seed: DEMO_INVENTORY, devApiKey: FREE_KEY, devPlan: 'free' });
    try {
      await insideOneMinute();
      const statuses: number[] = [];
      for (let check = 0; check < 61; check += 1) statuses.push((await fetch(`${bounded.baseUrl}/health`)).status);
      const refused = await fetch(`${bounded.baseUrl}/health`);

      expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true);
      expect([statuses[60], refused.status, refused.headers.get('x-ratelimit-remaining')]).toEqual([429, 429, '0']);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await refused.json()) as { code: string }).code).toBe('RATE_LIMIT_EXCEEDED');
    } finally {
      await bounded.close();
    }
  });
});
