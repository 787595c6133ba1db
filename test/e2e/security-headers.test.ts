import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../../functions/http/security-headers.ts';
import { startLocalApp, type LocalApp } from '../../local/local-app.ts';
import { DEMO_INVENTORY } from '../../local/seed.ts';
import { testAppStore } from '../support/local-store.ts';

/** Every answer, the functions' and the gateway's, carries the JSON API's security headers, and none lets a browser page read it (no CORS). */

const KEY = 'SecurityHeadersKey000000000001';
const ORIGIN = 'https://shop.example';
let app: LocalApp;

beforeAll(async () => {
  app = await startLocalApp({ ...testAppStore(), seed: DEMO_INVENTORY, devApiKey: KEY, devPlan: 'pro' });
});
afterAll(async () => {
  await app?.close();
});

const authorized = { Authorization: `Bearer ${KEY}`, Origin: ORIGIN };
const requests: [string, string, RequestInit, number][] = [
  ['a listing', '/inventory', { headers: authorized }, 200],
  [
    'an update with a bad body',
    '/inventory/1',
    { method: 'PATCH', headers: { ...authorized, 'Content-Type': 'application/json' }, body: '{"quantity":-1}' },
    400,
  ],
  ['a call without a key', '/inventory', { headers: { Origin: ORIGIN } }, 401],
  ['an unknown pet', '/pets/424242', { headers: authorized }, 404],
  ['an unknown route', '/nowhere', { headers: authorized }, 404],
  [
    'a CORS preflight',
    '/inventory',
    {
      method: 'OPTIONS',
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
    },
    404,
  ],
  ['the health check', '/health', { headers: { Origin: ORIGIN } }, 200],
];

describe('every answer of the local server', () => {
  it.each(requests)('%s (%s) carries the security headers and no CORS header', async (_what, path, init, status) => {
    const response = await fetch(`${app.baseUrl}${path}`, init);

    expect(response.status).toBe(status);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response.headers.get(name), name).toBe(value);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect([...response.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it.each([
    ['/openapi.json', SECURITY_HEADERS],
    // The reference's own Content-Security-Policy is in its HTML, allowing its inline style.
    ['/docs', { ...SECURITY_HEADERS, 'Content-Security-Policy': null }],
  ])('%s, cached for a few minutes as a published page, carries the security headers and no CORS header', async (path, expected) => {
    const response = await fetch(`${app.baseUrl}${path}`, { headers: { Origin: ORIGIN } });

    expect(response.status).toBe(200);
    for (const [name, value] of Object.entries(expected)) expect(response.headers.get(name), name).toBe(value);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect([...response.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });
});
