import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { StoreUnavailableError } from '../../../functions/domain/errors.ts';
import type { InventoryCount } from '../../../functions/domain/schemas.ts';
import { KeyAdmin } from '../../../local/key-admin.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { SERVICE_METRICS } from '../../../functions/logger.ts';
import { testAppStore } from '../../support/local-store.ts';
import { failingListing } from '../../support/inventory.ts';
import { insideOneMinute } from '../../support/minute-window.ts';

const DEV_KEY = 'RequestIdDevKey0123456789abcdefghij';
const SEED: InventoryCount[] = [{ petId: 1n, quantity: 5, status: 'available' }];

let app: LocalApp;
let oneRequestAMinute: string;

beforeAll(async () => {
  app = await startLocalApp({ ...testAppStore(), seed: SEED, devApiKey: DEV_KEY, devPlan: 'business' });
  const admin = new KeyAdmin(app.dependencies.apiKeys, app.dependencies.usageCounters);
  oneRequestAMinute = (await admin.issue({ plan: 'enterprise', owner: 'request ids', customLimits: { perMinute: 1, perDay: 1_000 } }))
    .apiKey;
});
afterAll(async () => app.close());
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

interface Answer {
  status: number;
  code: unknown;
  requestId: string | null;
  /** Every line the server wrote while it served the request, parsed. */
  lines: Record<string, unknown>[];
}

/** One request over HTTP, with what the server logged meanwhile (the tests run one request at a time). */
async function call(
  path: string,
  init: { method?: string; key?: string | null; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  vi.stubEnv('LOG_LEVEL', 'INFO');
  vi.stubEnv('METRICS_DISABLED', 'false');
  const written: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  };
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    const headers: Record<string, string> = { ...init.headers };
    if (init.key !== null) headers.Authorization = `Bearer ${init.key ?? DEV_KEY}`;
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${app.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers,
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    const body = (await response.json()) as { code?: unknown };
    return {
      status: response.status,
      code: body.code,
      requestId: response.headers.get('x-request-id'),
      lines: written
        .join('')
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

function expectOneIdThroughout(answer: Answer) {
  expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);
  // At least the server's own line for the request; every line, log or metric, names the request.
  expect(answer.lines.some((line) => line.message === 'request' && line.status === answer.status)).toBe(true);
  expect(answer.lines.map((line) => line.requestId)).toEqual(answer.lines.map(() => answer.requestId));
}

describe('every answer names its request in X-Request-Id, and every line logged for it carries the same id', () => {
  it('200: a listing', async () => {
    const answer = await call('/inventory');
    expect(answer.status).toBe(200);
    expectOneIdThroughout(answer);
  });

  it('400: an invalid body', async () => {
    const answer = await call('/inventory/1', { method: 'PATCH', body: '{"quantity": -1}' });
    expect([answer.status, answer.code]).toEqual([400, 'INVALID_BODY']);
    expectOneIdThroughout(answer);
  });

  it('401: no key, answered before any function runs', async () => {
    const answer = await call('/inventory', { key: null });
    expect([answer.status, answer.code]).toEqual([401, 'UNAUTHORIZED']);
    expectOneIdThroughout(answer);
  });

  it('404: an unknown pet, and an unknown route', async () => {
    const pet = await call('/inventory/123456');
    expect([pet.status, pet.code]).toEqual([404, 'PET_NOT_FOUND']);
    expectOneIdThroughout(pet);
    const route = await call('/nowhere');
    expect([route.status, route.code]).toEqual([404, 'ROUTE_NOT_FOUND']);
    expectOneIdThroughout(route);
  });

  it('409: a compare-and-set from a quantity that is no longer stored', async () => {
    const answer = await call('/inventory/1', { method: 'PATCH', body: '{"quantity": 9, "changeFromQuantity": 4}' });
    expect([answer.status, answer.code]).toEqual([409, 'QUANTITY_CHANGED']);
    expectOneIdThroughout(answer);
  });

  it('429: a key over its per-minute limit', async () => {
    await insideOneMinute();
    expect((await call('/inventory', { key: oneRequestAMinute })).status).toBe(200);
    const answer = await call('/inventory', { key: oneRequestAMinute });
    expect([answer.status, answer.code]).toEqual([429, 'RATE_LIMIT_EXCEEDED']);
    expectOneIdThroughout(answer);
    expect(answer.lines.some((line) => line.message === 'rate limited')).toBe(true);
  });

  it('503: a store that stays unavailable, with its warning and its metric', async () => {
    vi.spyOn(app.dependencies.inventory, 'listAll').mockImplementationOnce(failingListing(new StoreUnavailableError()));
    const answer = await call('/inventory');
    expect([answer.status, answer.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expectOneIdThroughout(answer);
    expect(answer.lines.some((line) => line.message === 'store unavailable')).toBe(true);
    expect(answer.lines.some((line) => line[SERVICE_METRICS.storeUnavailable] === 1)).toBe(true);
  });

  it('a different id for every request', async () => {
    const ids = new Set<string | null>();
    for (let index = 0; index < 5; index += 1) ids.add((await call('/inventory/1')).requestId);
    expect(ids.size).toBe(5);
  });
});
