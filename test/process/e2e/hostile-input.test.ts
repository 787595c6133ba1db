import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRaw, type RawAnswer, type RawRequest } from '../../support/raw-http.ts';
import { startServerProcess, stopServerProcess, type ServerProcess } from '../../support/server-process.ts';

/**
 * Hostile and malformed requests sent over raw TCP to `npm start` (a separate process, as a
 * user runs it): whatever arrives, the answer is JSON, never a 5xx, and the server stays up.
 */
const KEY = 'HostileInputKey0123456789abcdefgh';
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'] as const;

let dataDir: string;
let server: ServerProcess;
let port: number;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'hostile-input-'));
  server = await startServerProcess({ dataDir, env: { DEV_API_KEY: KEY, DEV_PLAN: 'business' } });
  port = Number(new URL(server.baseUrl).port);
});
afterAll(async () => {
  await stopServerProcess(server);
  await rm(dataDir, { recursive: true, force: true });
});

type Header = readonly [name: string, value: string];
const AUTH: Header = ['Authorization', `Bearer ${KEY}`];
const JSON_TYPE: Header = ['Content-Type', 'application/json'];

/** An HTTP/1.1 request as bytes, with Host first unless `host` is false. */
function http(
  method: string,
  target: string,
  headers: readonly Header[] = [],
  body = '',
  options: { host?: boolean; version?: string } = {},
): string {
  const lines = [
    `${method} ${target} ${options.version ?? 'HTTP/1.1'}`,
    ...(options.host === false ? [] : ['Host: 127.0.0.1']),
    ...headers.map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

function patch(target: string, body: string, headers: readonly Header[] = [AUTH, JSON_TYPE]): string {
  return http('PATCH', target, [...headers, ['Content-Length', String(Buffer.byteLength(body))]], body);
}

interface HostileCase {
  name: string;
  request: RawRequest;
  /** The answer expected, where the contract fixes it; every case is checked for JSON and no 5xx. */
  status?: number;
  code?: string;
}

const corpus: HostileCase[] = [
  ...PROTOTYPE_NAMES.flatMap((name): HostileCase[] => [
    { name: `query parameter ${name}, without a key`, request: http('GET', `/v1/inventory?${name}=1`), status: 401, code: 'UNAUTHORIZED' },
    // Not a parameter of the listing: refused as any unknown one is, whatever its name.
    {
      name: `query parameter ${name}, repeated, with the key`,
      request: http('GET', `/v1/inventory?${name}=1&${name}=2`, [AUTH]),
      status: 400,
      code: 'INVALID_QUERY',
    },
    { name: `header ${name}, without a key`, request: http('GET', '/v1/inventory', [[name, 'x']]), status: 401, code: 'UNAUTHORIZED' },
    {
      name: `header ${name}, repeated, with the key`,
      request: http('GET', '/v1/inventory', [AUTH, [name, 'x'], [name, 'y']]),
      status: 200,
    },
  ]),
  { name: 'request target //[', request: http('GET', '//['), status: 404, code: 'ROUTE_NOT_FOUND' },
  { name: 'request target //[ with the key', request: http('GET', '//[', [AUTH]), status: 404, code: 'ROUTE_NOT_FOUND' },
  { name: 'request target /v1//[', request: http('GET', '/v1//[', [AUTH]), status: 404, code: 'ROUTE_NOT_FOUND' },
  { name: 'a target that is neither a path nor a URL', request: http('GET', '[', [AUTH]), status: 400, code: 'BAD_REQUEST' },
  { name: 'an absolute-form target', request: http('GET', 'http://127.0.0.1/v1/inventory', [AUTH]), status: 200 },
  {
    name: 'an absolute-form target that is no URL',
    request: http('GET', 'http://[::1/v1/inventory', [AUTH]),
    status: 400,
    code: 'BAD_REQUEST',
  },
  { name: 'the asterisk target', request: http('OPTIONS', '*', [AUTH]), status: 404, code: 'ROUTE_NOT_FOUND' },
  { name: 'a percent-encoded petId (%31)', request: patch('/v1/inventory/%31', '{"quantity": 1}'), status: 400, code: 'INVALID_PET_ID' },
  {
    name: 'a percent-encoded petId on the deprecated route',
    request: http('GET', '/v1/pets/%31', [AUTH]),
    status: 400,
    code: 'INVALID_PET_ID',
  },
  { name: 'an encoded slash in petId', request: patch('/v1/inventory/1%2F2', '{"quantity": 1}'), status: 400, code: 'INVALID_PET_ID' },
  { name: 'a lone percent sign in petId', request: patch('/v1/inventory/%', '{"quantity": 1}'), status: 400, code: 'INVALID_PET_ID' },
  { name: 'a malformed escape in petId', request: patch('/v1/inventory/%ZZ', '{"quantity": 1}'), status: 400, code: 'INVALID_PET_ID' },
  {
    name: 'malformed escapes in the query',
    request: http('GET', '/v1/inventory?a=%zz&b=%&%=c', [AUTH]),
    status: 400,
    code: 'INVALID_QUERY',
  },
  {
    name: 'a malformed escape in a parameter the listing takes',
    request: http('GET', '/v1/inventory?lowStock=%zz', [AUTH]),
    status: 400,
    code: 'INVALID_QUERY',
  },
  {
    name: 'headers beyond 16 KiB',
    request: http('GET', '/v1/inventory', [AUTH, ['X-Big', 'a'.repeat(20_000)]]),
    status: 431,
    code: 'BAD_REQUEST',
  },
  { name: 'a URL beyond 16 KiB', request: http('GET', `/v1/inventory?q=${'a'.repeat(20_000)}`, [AUTH]), status: 431, code: 'BAD_REQUEST' },
  {
    name: 'a control character in a header value',
    request: http('GET', '/v1/inventory', [AUTH, ['X-Bad', 'a\u0001b']]),
    status: 400,
    code: 'BAD_REQUEST',
  },
  { name: 'a space in a header name', request: http('GET', '/v1/inventory', [AUTH, ['Bad Name', 'x']]), status: 400, code: 'BAD_REQUEST' },
  {
    name: 'a space before the colon',
    request: http('GET', '/v1/inventory', [['Authorization ', `Bearer ${KEY}`]]),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'a folded header line',
    request: `GET /v1/inventory HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer\r\n ${KEY}\r\n\r\n`,
    status: 400,
    code: 'BAD_REQUEST',
  },
  { name: 'a NUL in the target', request: http('GET', '/v1/inv\u0000entory', [AUTH]), status: 400, code: 'BAD_REQUEST' },
  {
    name: 'a byte that is not UTF-8 in the path',
    request: Buffer.concat([
      Buffer.from('GET /v1/inventory/'),
      Buffer.from([0xff]),
      Buffer.from(` HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\n\r\n`),
    ]),
  },
  {
    name: 'Content-Length and Transfer-Encoding together',
    request: http('PATCH', '/v1/inventory/1', [AUTH, JSON_TYPE, ['Content-Length', '15'], ['Transfer-Encoding', 'chunked']], '0\r\n\r\n'),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'a Content-Length that is not a number',
    request: http('PATCH', '/v1/inventory/1', [AUTH, JSON_TYPE, ['Content-Length', 'abc']]),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'a negative Content-Length',
    request: http('PATCH', '/v1/inventory/1', [AUTH, JSON_TYPE, ['Content-Length', '-1']]),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'two different Content-Lengths',
    request: http('PATCH', '/v1/inventory/1', [AUTH, JSON_TYPE, ['Content-Length', '15'], ['Content-Length', '16']], '{"quantity": 1}'),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'a chunk size that is not hexadecimal',
    request: http('PATCH', '/v1/inventory/1', [AUTH, JSON_TYPE, ['Transfer-Encoding', 'chunked']], 'zz\r\n{}\r\n0\r\n\r\n'),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'an unknown transfer coding',
    request: http('PATCH', '/v1/inventory/1', [AUTH, JSON_TYPE, ['Transfer-Encoding', 'gzip']], '{}'),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'a valid chunked body',
    request: http('PATCH', '/v1/inventory/1', [AUTH, JSON_TYPE, ['Transfer-Encoding', 'chunked']], 'f\r\n{"quantity": 1}\r\n0\r\n\r\n'),
    status: 200,
  },
  {
    name: 'an unknown Expect',
    request: http('GET', '/v1/inventory', [AUTH, ['Expect', '102-processing']]),
    status: 417,
    code: 'BAD_REQUEST',
  },
  {
    name: 'Expect: 100-continue without a key',
    request: http('PATCH', '/v1/inventory/1', [JSON_TYPE, ['Expect', '100-continue'], ['Content-Length', '15']]),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'two Authorization headers, both the key',
    request: http('GET', '/v1/inventory', [AUTH, AUTH]),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'two Authorization headers, the key last',
    request: http('GET', '/v1/inventory', [['Authorization', 'Bearer SomeOtherKey0123456789abcdef'], AUTH]),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'two Authorization headers in different case',
    request: http('GET', '/v1/inventory', [['authorization', `Bearer ${KEY}`], AUTH]),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'two bearer tokens in one Authorization header',
    request: http('GET', '/v1/inventory', [['Authorization', `Bearer ${KEY}, Bearer ${KEY}`]]),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'a 10,000-character bearer token',
    request: http('GET', '/v1/inventory', [['Authorization', `Bearer ${'A'.repeat(10_000)}`]]),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'a duplicate key in the body',
    request: patch('/v1/inventory/1', '{"quantity": 1, "quantity": 2}'),
    status: 400,
    code: 'MALFORMED_JSON',
  },
  {
    name: 'a duplicate key in a nested object',
    request: patch('/v1/inventory/1', '{"quantity": 1, "note": {"a": 1, "\\u0061": 2}}'),
    status: 400,
    code: 'MALFORMED_JSON',
  },
  {
    name: 'a __proto__ key in the body',
    request: patch('/v1/inventory/1', '{"__proto__": {"quantity": 1}}'),
    status: 400,
    code: 'MALFORMED_JSON',
  },
  ...[
    ['PATCH', '/v1/inventory/1'],
    ['POST', '/v1/inventory/1/adjustments'],
    ['POST', '/v1/inventory/adjustments'],
  ].map(
    ([method, target]): HostileCase => ({
      name: `a constructor.prototype key in the body of ${method} ${target}`,
      request: http(
        method!,
        target!,
        [AUTH, JSON_TYPE, ['Idempotency-Key', 'constructor-prototype'], ['Content-Length', '34']],
        '{"constructor": {"prototype": {}}}',
      ),
      status: 400,
      code: 'MALFORMED_JSON',
    }),
  ),
  {
    name: 'a JSON media type with whitespace before its parameter',
    request: patch('/v1/inventory/1', '{"quantity": 1}', [AUTH, ['Content-Type', 'application/json ; charset=utf-8']]),
    status: 200,
  },
  {
    name: 'deeply nested arrays in the body',
    request: patch('/v1/inventory/1', `{"quantity": ${'['.repeat(1_500)}${']'.repeat(1_500)}}`),
    status: 400,
    code: 'MALFORMED_JSON',
  },
  {
    name: 'two Idempotency-Key lines on an adjustment',
    request: http(
      'POST',
      '/v1/inventory/1/adjustments',
      [AUTH, JSON_TYPE, ['Idempotency-Key', 'first-key'], ['Idempotency-Key', 'second-key'], ['Content-Length', '34']],
      '{"delta": 1, "reason": "arrival"}\n',
    ),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'one Idempotency-Key spelled twice on an adjustment',
    request: http(
      'POST',
      '/v1/inventory/1/adjustments',
      [AUTH, JSON_TYPE, ['Idempotency-Key', 'k1'], ['idempotency-key', 'k2'], ['Content-Length', '34']],
      '{"delta": 1, "reason": "arrival"}\n',
    ),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'two Content-Type lines',
    request: patch('/v1/inventory/1', '{"quantity": 1}', [AUTH, JSON_TYPE, ['Content-Type', 'text/plain']]),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'a quantity written 1.0000000000000001, which a double reads as 1',
    request: patch('/v1/inventory/1', '{"quantity": 1.0000000000000001}'),
    status: 400,
    code: 'INVALID_BODY',
  },
  { name: 'an empty body', request: patch('/v1/inventory/1', ''), status: 400, code: 'INVALID_BODY' },
  {
    name: 'a body declared beyond 10 MiB',
    request: http('PATCH', '/v1/inventory/1', [AUTH, JSON_TYPE, ['Content-Length', String(11 * 1024 * 1024)]], '{"quantity"'),
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
  },
  { name: 'HTTP/1.0 without Host', request: http('GET', '/v1/inventory', [AUTH], '', { host: false, version: 'HTTP/1.0' }), status: 200 },
  { name: 'HTTP/1.1 without Host', request: http('GET', '/v1/inventory', [AUTH], '', { host: false }), status: 400, code: 'BAD_REQUEST' },
  { name: 'an unknown method', request: http('FOO', '/v1/inventory', [AUTH]), status: 400, code: 'BAD_REQUEST' },
  { name: 'a lower-case method', request: http('get', '/v1/inventory', [AUTH]), status: 400, code: 'BAD_REQUEST' },
  { name: 'CONNECT', request: http('CONNECT', '127.0.0.1:22', [AUTH]), status: 404, code: 'ROUTE_NOT_FOUND' },
  {
    name: 'a WebSocket upgrade',
    request: http('GET', '/v1/inventory', [AUTH, ['Connection', 'Upgrade'], ['Upgrade', 'websocket']]),
    status: 200,
  },
  { name: 'the HTTP/2 preface', request: 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', status: 400, code: 'BAD_REQUEST' },
  { name: 'a TLS ClientHello', request: Buffer.from('16030100c4010000c00303', 'hex'), status: 400, code: 'BAD_REQUEST' },
  { name: 'blank lines before the request line', request: `\r\n\r\n${http('GET', '/v1/inventory', [AUTH])}`, status: 200 },
  {
    name: '500 small headers',
    request: http('GET', '/v1/inventory', [AUTH, ...Array.from({ length: 500 }, (_, index): Header => [`x${index}`, 'y'])]),
    status: 200,
  },
];

async function expectUp(): Promise<void> {
  const answer = await sendRaw(port, http('GET', '/v1/inventory', [AUTH]));
  expect(answer === 'closed' || answer === 'no answer' ? answer : answer.status).toBe(200);
}

/** The answer is JSON, not a 5xx, and an error answer is the contract's Error body with its own status. */
function expectJsonAnswer(answer: RawAnswer | 'closed' | 'no answer'): RawAnswer {
  if (typeof answer === 'string') throw new Error(`expected an answer, got ${answer}`);
  expect(answer.status).toBeLessThan(500);
  expect(answer.headers.get('content-type')).toBe('application/json');
  const body: unknown = JSON.parse(answer.body);
  if (answer.status >= 400)
    expect(body).toEqual({ code: expect.stringMatching(/^[A-Z_]+$/), message: expect.any(String), status: answer.status });
  return answer;
}

describe('hostile input over raw TCP', () => {
  it.each(corpus.map((entry) => [entry.name, entry] as const))('%s: JSON, no 5xx, and the server still answers', async (_name, entry) => {
    const answer = expectJsonAnswer(await sendRaw(port, entry.request));

    if (entry.status !== undefined) expect(answer.status).toBe(entry.status);
    if (entry.code !== undefined) expect(JSON.parse(answer.body)).toMatchObject({ code: entry.code });
    await expectUp();
  });

  it("answers Node's own refusals with the headers of every Error answer and closes the connection", async () => {
    const answer = expectJsonAnswer(await sendRaw(port, http('FOO', '/v1/inventory')));

    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(answer.body)));
    expect(answer.headers.get('connection')).toBe('close');
  });

  it('sends 100 Continue only once the key is accepted', async () => {
    const body = '{"quantity": 4}';
    const expecting = (headers: readonly Header[]) => (socket: import('node:net').Socket) => {
      socket.write(
        http('PATCH', '/v1/inventory/1', [...headers, JSON_TYPE, ['Expect', '100-continue'], ['Content-Length', String(body.length)]]),
      );
      socket.once('data', () => socket.write(body));
    };

    const refused = expectJsonAnswer(await sendRaw(port, expecting([])));
    const accepted = expectJsonAnswer(await sendRaw(port, expecting([AUTH])));

    expect([refused.status, refused.interim]).toEqual([401, []]);
    expect([accepted.status, accepted.interim]).toEqual([200, [100]]);
  });
});

describe('slow and stalled clients', () => {
  it('are answered 408 within seconds: no request line, stalled headers, a body shorter than its Content-Length', {
    timeout: 60_000,
  }, async () => {
    const [idle, stalledHeaders, shortBody] = await Promise.all([
      sendRaw(port, () => undefined, 40_000),
      sendRaw(port, `GET /v1/inventory HTTP/1.1\r\nHost: 127.0.0.1\r\n`, 40_000),
      sendRaw(port, http('PATCH', '/v1/inventory/1', [AUTH, JSON_TYPE, ['Content-Length', '100']], '{"quantity"'), 40_000),
    ]);

    for (const answer of [idle, stalledHeaders, shortBody]) {
      expect(JSON.parse(expectJsonAnswer(answer).body)).toMatchObject({ code: 'BAD_REQUEST', status: 408 });
      expect((answer as RawAnswer).elapsedMs).toBeLessThan(30_000);
    }
    await expectUp();
  });

  it('refuses a body shorter than its Content-Length at once when the request has no key', async () => {
    const answer = expectJsonAnswer(
      await sendRaw(port, http('PATCH', '/v1/inventory/1', [JSON_TYPE, ['Content-Length', '100']], '{"quantity"')),
    );

    expect(answer.status).toBe(401);
  });
});

/** The server's resident memory and its peak so far, from /proc. */
async function memory(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

describe('bodies of unauthenticated requests', () => {
  it('are never held: 40 concurrent 10 MiB PATCHes without a key are answered 401, and memory stays flat', {
    timeout: 120_000,
  }, async () => {
    const body = Buffer.alloc(10 * 1024 * 1024, 'a');
    const before = await memory(server.process.pid!);

    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        sendRaw(
          port,
          (socket) => {
            socket.write(http('PATCH', '/v1/inventory/1', [JSON_TYPE, ['Content-Length', String(body.length)]]));
            socket.write(body);
          },
          60_000,
        ),
      ),
    );

    for (const answer of answers) expect(expectJsonAnswer(answer).status).toBe(401);
    const after = await memory(server.process.pid!);
    expect(after.peak - before.rss).toBeLessThan(100 * 1024 * 1024);
    await expectUp();
  });
});
