import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../contract/api-reference.ts';
import { SECURITY_HEADERS } from '../../../functions/http/security-headers.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { DEMO_INVENTORY } from '../../../contract/demo-inventory.ts';
import { parsePublicBaseUrl } from '../../../local/published-contract-routes.ts';
import { testAppStore } from '../../support/local-store.ts';
import { sendRaw } from '../../support/raw-http.ts';

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
    // The reference's own Content-Security-Policy, allowing its inline style, as a header and in its HTML.
    ['/docs', { ...SECURITY_HEADERS, 'Content-Security-Policy': CONTENT_SECURITY_POLICY }],
  ])('%s, cached for a few minutes as a published page, carries the security headers and no CORS header', async (path, expected) => {
    const response = await fetch(`${app.baseUrl}${path}`, { headers: { Origin: ORIGIN } });

    expect(response.status).toBe(200);
    for (const [name, value] of Object.entries(expected)) expect(response.headers.get(name), name).toBe(value);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect([...response.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });
});

describe('the published pages', () => {
  it.each(['/openapi.json', '/docs'])('%s names the server from configuration, never the Host a client sends', async (path) => {
    const port = Number(new URL(app.baseUrl).port);
    const answers = await Promise.all(
      ['evil.example', '127.0.0.1:1', 'localhost'].map((host) =>
        sendRaw(port, `GET /v1${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
      ),
    );

    for (const answer of answers) {
      if (typeof answer === 'string') throw new Error(`no answer: ${answer}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toContain(`${app.baseUrl}/inventory`);
      expect(answer.body).not.toContain('evil.example');
      expect(answer.body).not.toContain('127.0.0.1:1/');
    }
    expect(new Set(answers.map((answer) => typeof answer !== 'string' && answer.headers.get('etag'))).size).toBe(1);
  });

  it('name PUBLIC_BASE_URL when it is set', async () => {
    const behindProxy = await startLocalApp({
      ...testAppStore(),
      seed: DEMO_INVENTORY,
      devApiKey: KEY,
      devPlan: 'pro',
      publicBaseUrl: parsePublicBaseUrl('https://inventory.example/v1/'),
    });
    try {
      const document = (await (await fetch(`${behindProxy.baseUrl}/openapi.json`)).json()) as { servers: { url: string }[] };
      expect(document.servers.map(({ url }) => url)).toEqual(['https://inventory.example/v1']);
    } finally {
      await behindProxy.close();
    }
  });

  it.each(['inventory.example/v1', 'ftp://inventory.example/v1', 'https://inventory.example/api', 'https://inventory.example/v1?x=1'])(
    'refuse PUBLIC_BASE_URL=%s in one line',
    (value) => {
      expect(() => parsePublicBaseUrl(value)).toThrow(`PUBLIC_BASE_URL must be the http(s) base URL clients call, ending in /v1`);
    },
  );
});
