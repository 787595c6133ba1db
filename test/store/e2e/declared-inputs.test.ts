import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_INVENTORY } from '../../../contract/demo-inventory.ts';
import { apiRoutes } from '../../../functions/routes.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { testAppStore } from '../../support/local-store.ts';

/**
 * Every operation of the registry over HTTP: a query parameter it does not declare, one it does
 * sent twice, and a body where it takes none, are each refused with 400 and the Error body, as
 * an unknown body field is, and change nothing.
 */

const KEY = 'DeclaredInputsKey000000000000001';
let app: LocalApp;

beforeAll(async () => {
  app = await startLocalApp({ ...testAppStore(), seed: DEMO_INVENTORY, devApiKey: KEY, devPlan: 'business' });
});
afterAll(async () => {
  await app?.close();
});

const RESERVATION_ID = '00000000-0000-4000-8000-000000000000';
/** The route's resource with its path parameters filled in. */
const pathOf = (resource: string) => resource.replace('{petId}', '1').replace('{reservationId}', RESERVATION_ID);

/** One request over node:http, which sends a body with any method (fetch refuses one on a GET). */
function call(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: unknown; remaining: string | undefined }>((resolve, reject) => {
    const outgoing = request(
      `${app.baseUrl}${path}`,
      {
        method,
        headers: {
          Authorization: `Bearer ${KEY}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }),
          ...headers,
        },
      },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode!,
            body: JSON.parse(text) as unknown,
            remaining: incoming.headers['x-ratelimit-remaining'] as string | undefined,
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const takes = (route: (typeof apiRoutes)[number]) => {
  const names = Object.keys('query' in route ? route.query : {});
  return names.length === 0
    ? `${route.operationId} takes no query parameters`
    : `${route.operationId} takes ${names.map((name) => `\`${name}\``).join(', ')}, each at most once`;
};

describe('a query parameter the operation does not declare', () => {
  it.each(apiRoutes.map((route) => [route.operationId, route] as const))(
    'is refused by %s with 400 INVALID_QUERY, counted',
    async (_id, route) => {
      const answer = await call(route.method, `${pathOf(route.resource)}?cacheBuster=1`);

      expect(answer).toEqual({
        status: 400,
        body: { code: 'INVALID_QUERY', message: `cacheBuster: not a query parameter here; ${takes(route)}.`, status: 400 },
        remaining: expect.stringMatching(/^\d+$/),
      });
    },
  );

  it("is a typo's refusal, not the listing: ?lowstock=true answers 400, where it answered every pet", async () => {
    expect(await call('GET', '/inventory?lowstock=true')).toMatchObject({
      status: 400,
      body: { code: 'INVALID_QUERY', message: 'lowstock: not a query parameter here; listInventory takes `lowStock`, each at most once.' },
    });
  });
});

describe('a query parameter sent twice', () => {
  it.each([
    ['?lowStock=true&lowStock=false', 'lowStock', 'listInventory takes `lowStock`'],
    ['?lowStock=false&lowStock=true', 'lowStock', 'listInventory takes `lowStock`'],
  ])('is refused whatever the order of its values: GET /inventory%s', async (query, name, operation) => {
    expect(await call('GET', `/inventory${query}`)).toMatchObject({
      status: 400,
      body: { code: 'INVALID_QUERY', message: `${name}: sent 2 times; ${operation}, each at most once.` },
    });
  });

  it('is refused by the history and the feed too', async () => {
    for (const path of ['/inventory/1/changes?limit=1&limit=2', '/inventory/changes?cursor=a&cursor=b'])
      expect((await call('GET', path)).status).toBe(400);
  });
});

describe('a body sent to an operation that takes none', () => {
  const withoutBody = apiRoutes.filter((route) => !('body' in route));

  it.each(withoutBody.map((route) => [route.operationId, route] as const))('is refused by %s with 400 INVALID_BODY', async (_id, route) => {
    expect(await call(route.method, pathOf(route.resource), '{}')).toMatchObject({
      status: 400,
      body: { code: 'INVALID_BODY', message: `${route.operationId} takes no request body; send it without one.`, status: 400 },
    });
  });

  it('commits nothing: a commit with a body leaves the reservation active, and one without commits it', async () => {
    const reserved = await fetch(`${app.baseUrl}/inventory/reservations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
      body: JSON.stringify({ items: [{ petId: 1, quantity: 1 }] }),
    });
    const { reservationId } = (await reserved.json()) as { reservationId: string };

    for (const body of ['{"anything":1}', 'not JSON at all', 'x'.repeat(1_000_000)])
      expect((await call('POST', `/inventory/reservations/${reservationId}/commit`, body)).status).toBe(400);
    expect(((await call('GET', `/inventory/reservations/${reservationId}`)).body as { status: string }).status).toBe('active');
    expect((await call('POST', `/inventory/reservations/${reservationId}/commit`)).status).toBe(200);
  });
});
