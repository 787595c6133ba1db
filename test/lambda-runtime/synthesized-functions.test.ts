import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_PAGE_SIZE } from '../../functions/adapters/dynamodb/stored-inventory-item.ts';
import { inventoryKey } from '../../functions/adapters/dynamodb/stored-inventory-item.ts';
import { ENV } from '../../functions/config.ts';
import { HEALTH_OUTCOME_TTL_MS } from '../../functions/domain/health.ts';
import type { InventoryCount } from '../../functions/domain/schemas.ts';
import { STREAM_ABORTED_LOG_MESSAGE } from '../../functions/http/json-array-stream.ts';
import { authorizerEvent, proxyEvent, type GatewayRequest } from '../../local/gateway-events.ts';
import { startLocalApp, type LocalApp } from '../../local/local-app.ts';
import { SERVICE_METRICS } from '../../functions/logger.ts';
import { sharedStore, uniqueTables } from '../support/local-store.ts';
import type { InvocationAnswer } from './runtime-api.ts';
import { FaultyStore } from './store-faults.ts';
import { FunctionProcess, synthesizedFunctions, type SynthesizedFunction } from './synthesized-functions.ts';

/**
 * The deployed artifacts under AWS's own code: every function asset of the synthesized
 * template, run by AWS's runtime client (aws-lambda-ric) against a Runtime API on 127.0.0.1
 * and DynamoDB Local, as Lambda would run it. Run by `npm run test:lambda-runtime`
 * (docs/lambda-runtime.md), not by `npm test`: the runtime client builds a native addon first.
 */

const API_KEY = 'RuntimeClientTestKey0000000001';
/** More than one Query page in one shard, so that a listing reads a second page after its first bytes are out. */
const SHARD_ZERO_PETS = INVENTORY_PAGE_SIZE + 20;
const KNOWN_PET = 1_000_000n;
const UNKNOWN_PET = '999999999';

function petsInShardZero(count: number): InventoryCount[] {
  const pets: InventoryCount[] = [];
  for (let petId = 1n; pets.length < count; petId += 1n) {
    if (inventoryKey(petId).shard === 0) pets.push({ petId, quantity: Number(petId % 50n), status: 'available' });
  }
  return pets;
}

const SEED: InventoryCount[] = [...petsInShardZero(SHARD_ZERO_PETS), { petId: KNOWN_PET, quantity: 10, status: 'available' }];

let store: FaultyStore;
let app: LocalApp;
const processes = new Map<string, FunctionProcess>();
/**
 * The stack's background functions, not run here: the stream consumer publishes to EventBridge and
 * the webhook delivery reads SQS and Secrets Manager, which have no local engine. Their handlers
 * run under `npm start` (the consumer's and the outbox's) and in unit tests with the SDK mocked.
 */
const BACKGROUND_FUNCTIONS = ['History', 'Events', 'ReservationSweep'];
const allTemplateFunctions = synthesizedFunctions();
const templateFunctions = allTemplateFunctions.filter((fn) => !BACKGROUND_FUNCTIONS.includes(fn.name));
const tables = uniqueTables();

function running(name: string): FunctionProcess {
  const process = processes.get(name);
  if (!process) throw new Error(`no function ${name} in the template`);
  return process;
}

beforeAll(async () => {
  store = await FaultyStore.start(sharedStore().endpoint, tables.inventoryTable);
  // `npm start`'s server, on the same tables (through the same relay): it creates them, seeds them and registers the key.
  app = await startLocalApp({ store: { endpoint: store.endpoint }, tables, seed: SEED, devApiKey: API_KEY, devPlan: 'business' });
  for (const fn of templateFunctions) processes.set(fn.name, await FunctionProcess.start(fn, { tables, storeEndpoint: store.endpoint }));
}, 120_000);

afterAll(async () => {
  await Promise.all([...processes.values()].map((process) => process.stop()));
  await app?.close();
  await store?.close();
});

/** A request as API Gateway receives it, for `resource` with `path` (both stage-relative). */
function gatewayRequest(
  method: string,
  resource: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string; query?: Record<string, string> } = {},
): GatewayRequest {
  const headers = { Authorization: `Bearer ${API_KEY}`, Host: 'api.example.com', ...options.headers };
  const parameter = /\{(\w+)\}/.exec(resource);
  return {
    method,
    resource,
    path,
    stage: 'v1',
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: options.query ?? {},
    multiValueQueryStringParameters: Object.fromEntries(Object.entries(options.query ?? {}).map(([name, value]) => [name, [value]])),
    pathParameters: parameter ? { [parameter[1]!]: path.split('/')[resource.split('/').indexOf(parameter[0])]! } : {},
    body: options.body ?? null,
    requestId: randomUUID(),
    sourceIp: '127.0.0.1',
    protocol: 'HTTP/1.1',
    receivedAt: Date.now(),
  };
}

/** The proxy event API Gateway sends once the authorizer function (under the runtime client too) has allowed the request. */
async function authorizedEvent(request: GatewayRequest): Promise<APIGatewayProxyEvent> {
  const answer = await running('Authorizer').invoke(authorizerEvent(request));
  if (answer.kind !== 'response') throw new Error(`the authorizer answered ${JSON.stringify(answer)}`);
  const result = JSON.parse(answer.body.toString('utf8')) as APIGatewayAuthorizerResult;
  return proxyEvent(request, { principalId: result.principalId, context: result.context ?? {}, latencyMs: 1 });
}

interface HttpAnswer {
  statusCode: number;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

/** A buffered function's answer, as the proxy integration reads it. */
function bufferedAnswer(answer: InvocationAnswer): HttpAnswer & { json: unknown } {
  if (answer.kind !== 'response') throw new Error(`expected a buffered answer, got ${JSON.stringify(answer)}`);
  const result = JSON.parse(answer.body.toString('utf8')) as { statusCode: number; headers: Record<string, string>; body: string };
  // A 204 has no body to parse.
  const json: unknown = result.body === '' ? undefined : JSON.parse(result.body);
  return { statusCode: result.statusCode, headers: result.headers, body: Buffer.from(result.body), json };
}

const PRELUDE_DELIMITER = Buffer.alloc(8);

/** A streamed answer as API Gateway reads it: the prelude (status and headers), 8 NUL bytes, the body. */
function streamedAnswer(answer: InvocationAnswer): HttpAnswer & { complete: boolean; errorType: string | undefined } {
  if (answer.kind !== 'stream') throw new Error(`expected a streamed answer, got ${JSON.stringify(answer)}`);
  const at = answer.body.indexOf(PRELUDE_DELIMITER);
  const prelude = JSON.parse(answer.body.subarray(0, at).toString('utf8')) as { statusCode: number; headers: Record<string, string> };
  return {
    statusCode: prelude.statusCode,
    headers: prelude.headers,
    body: answer.body.subarray(at + PRELUDE_DELIMITER.length),
    complete: answer.complete,
    errorType: answer.trailers['lambda-runtime-function-error-type'],
  };
}

/** The same request to `npm start`'s server, read byte for byte (no decompression), and whether its body arrived whole. */
function fromLocalServer(path: string, headers: Record<string, string>): Promise<HttpAnswer & { complete: boolean }> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(`${app.baseUrl}${path}`, { headers: { Authorization: `Bearer ${API_KEY}`, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      const done = () =>
        resolve({
          statusCode: response.statusCode ?? 0,
          headers: lowerCased(response.headers),
          body: Buffer.concat(chunks),
          complete: response.complete,
        });
      response.once('end', done);
      response.once('error', done);
    });
    call.on('error', reject);
    call.end();
  });
}

function lowerCased(headers: IncomingHttpHeaders | Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value]),
  );
}

/** The headers a function sets, but for those naming or counting the one request (its id, the rate limit's count). */
function functionHeaders(headers: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(
    // The request id and each window's remaining count differ between two requests; the rest must not.
    Object.entries(lowerCased(headers)).filter(
      ([name]) => name !== 'x-request-id' && name !== 'ratelimit' && !name.startsWith('x-ratelimit-'),
    ),
  );
}

function expectErrorBody(answer: HttpAnswer, status: number): void {
  expect(answer.statusCode).toBe(status);
  expect(JSON.parse(answer.body.toString('utf8'))).toMatchObject({ status, code: expect.any(String), message: expect.any(String) });
}

it('runs every function of the synthesized template that serves a request', () => {
  expect(templateFunctions.map((fn: SynthesizedFunction) => fn.name).sort()).toEqual(
    [
      'AdjustInventory',
      'AdjustInventoryBatch',
      'Authorizer',
      'CommitReservation',
      'DeleteLowStockThreshold',
      'GetInventoryItem',
      'GetLowStockThreshold',
      'GetPetById',
      'GetReservation',
      'Health',
      'ListInventory',
      'ListInventoryChangeFeed',
      'ListInventoryChanges',
      'PutLowStockThreshold',
      'ReleaseReservation',
      'ReserveInventory',
      'UpdateInventory',
    ].sort(),
  );
  expect(allTemplateFunctions.length).toBe(templateFunctions.length + BACKGROUND_FUNCTIONS.length);
});

describe('the authorizer', () => {
  it('allows a known key with its context, denies an unknown one, fails while the store fails on a key it must read, and serves the next invocation', async () => {
    const authorizer = running('Authorizer');
    const withKey = (apiKey: string) =>
      authorizerEvent(gatewayRequest('GET', '/inventory', '/inventory', { headers: { Authorization: `Bearer ${apiKey}` } }));
    const allowed = await authorizer.invoke(withKey(API_KEY));
    const denied = await authorizer.invoke(withKey('UnknownKey00000000000000000'));
    store.fault = 'every call';
    let failed: InvocationAnswer;
    let fromMemory: InvocationAnswer;
    try {
      // A key it has not read (an unknown one is never kept) needs the store; the key it read a moment ago does not.
      failed = await authorizer.invoke(withKey('UnknownKey00000000000000000'));
      fromMemory = await authorizer.invoke(withKey(API_KEY));
    } finally {
      store.fault = 'none';
    }
    const again = await authorizer.invoke(withKey(API_KEY));

    const policy = (answer: InvocationAnswer) => {
      if (answer.kind !== 'response') throw new Error(`expected a policy, got ${JSON.stringify(answer)}`);
      return JSON.parse(answer.body.toString('utf8')) as APIGatewayAuthorizerResult;
    };
    expect(policy(allowed).policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
    expect(policy(allowed).context).toMatchObject({ plan: 'business' });
    expect(policy(denied).policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
    // An invocation error: API Gateway answers it with AUTHORIZER_FAILURE (500).
    expect(failed).toMatchObject({ kind: 'error', body: { errorType: expect.any(String), errorMessage: expect.any(String) } });
    expect(policy(fromMemory).policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
    expect(policy(again).policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
    expect(authorizer.running).toBe(true);
  });
});

describe('the buffered functions', () => {
  const cases = [
    {
      name: 'GetInventoryItem',
      success: () => gatewayRequest('GET', '/inventory/{petId}', `/inventory/${KNOWN_PET}`),
      failure: () => gatewayRequest('GET', '/inventory/{petId}', `/inventory/${UNKNOWN_PET}`),
      status: [200, 404],
    },
    {
      name: 'UpdateInventory',
      success: () =>
        gatewayRequest('PATCH', '/inventory/{petId}', `/inventory/${KNOWN_PET}`, {
          headers: { 'Content-Type': 'application/json' },
          body: '{"quantity":12}',
        }),
      failure: () =>
        gatewayRequest('PATCH', '/inventory/{petId}', `/inventory/${KNOWN_PET}`, {
          headers: { 'Content-Type': 'application/json' },
          body: '{"quantity":-1}',
        }),
      status: [200, 400],
    },
    {
      name: 'AdjustInventoryBatch',
      success: () =>
        gatewayRequest('POST', '/inventory/adjustments', '/inventory/adjustments', {
          headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
          body: `{"adjustments":[{"petId":${KNOWN_PET},"delta":1,"reason":"arrival"}]}`,
        }),
      failure: () =>
        gatewayRequest('POST', '/inventory/adjustments', '/inventory/adjustments', {
          headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
          body: `{"adjustments":[{"petId":${UNKNOWN_PET},"delta":1,"reason":"arrival"}]}`,
        }),
      status: [200, 404],
    },
    {
      name: 'AdjustInventory',
      success: () =>
        gatewayRequest('POST', '/inventory/{petId}/adjustments', `/inventory/${KNOWN_PET}/adjustments`, {
          headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
          body: '{"delta":1,"reason":"arrival"}',
        }),
      failure: () =>
        gatewayRequest('POST', '/inventory/{petId}/adjustments', `/inventory/${KNOWN_PET}/adjustments`, {
          headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
          body: '{"delta":"one"}',
        }),
      status: [200, 400],
    },
    {
      name: 'ListInventoryChanges',
      success: () => gatewayRequest('GET', '/inventory/{petId}/changes', `/inventory/${KNOWN_PET}/changes`),
      failure: () => gatewayRequest('GET', '/inventory/{petId}/changes', `/inventory/${UNKNOWN_PET}/changes`),
      status: [200, 404],
    },
    {
      name: 'ListInventoryChangeFeed',
      success: () => gatewayRequest('GET', '/inventory/changes', '/inventory/changes'),
      failure: () => gatewayRequest('GET', '/inventory/changes', '/inventory/changes', { query: { limit: '0' } }),
      status: [200, 400],
    },
    {
      name: 'GetPetById',
      success: () => gatewayRequest('GET', '/pets/{petId}', `/pets/${KNOWN_PET}`),
      failure: () => gatewayRequest('GET', '/pets/{petId}', `/pets/${UNKNOWN_PET}`),
      status: [200, 404],
    },
    // In this order: the threshold the PUT sets is the one the GET reads, and the DELETE removes.
    {
      name: 'PutLowStockThreshold',
      success: () =>
        gatewayRequest('PUT', '/inventory/{petId}/low-stock-threshold', `/inventory/${KNOWN_PET}/low-stock-threshold`, {
          headers: { 'Content-Type': 'application/json' },
          body: '{"threshold":5}',
        }),
      failure: () =>
        gatewayRequest('PUT', '/inventory/{petId}/low-stock-threshold', `/inventory/${KNOWN_PET}/low-stock-threshold`, {
          headers: { 'Content-Type': 'application/json' },
          body: '{"threshold":-1}',
        }),
      status: [200, 400],
    },
    {
      name: 'GetLowStockThreshold',
      success: () => gatewayRequest('GET', '/inventory/{petId}/low-stock-threshold', `/inventory/${KNOWN_PET}/low-stock-threshold`),
      failure: () => gatewayRequest('GET', '/inventory/{petId}/low-stock-threshold', `/inventory/${UNKNOWN_PET}/low-stock-threshold`),
      status: [200, 404],
    },
    {
      name: 'DeleteLowStockThreshold',
      success: () => gatewayRequest('DELETE', '/inventory/{petId}/low-stock-threshold', `/inventory/${KNOWN_PET}/low-stock-threshold`),
      failure: () => gatewayRequest('DELETE', '/inventory/{petId}/low-stock-threshold', `/inventory/${UNKNOWN_PET}/low-stock-threshold`),
      status: [204, 404],
    },
  ];

  it.each(cases)('$name answers a success and an error, and serves the next invocation', async ({ name, success, failure, status }) => {
    const fn = running(name);
    const first = bufferedAnswer(await fn.invoke(await authorizedEvent(success())));
    const second = bufferedAnswer(await fn.invoke(await authorizedEvent(failure())));
    const third = bufferedAnswer(await fn.invoke(await authorizedEvent(success())));

    expect(first.statusCode).toBe(status[0]);
    expect(first.headers['X-Request-Id']).toBeDefined();
    expectErrorBody(second, status[1]!);
    expect(third.statusCode).toBe(status[0]);
    expect(fn.running).toBe(true);
  });

  it('Health answers 200, then 503 while the store fails, and serves the next invocation', async () => {
    const health = running('Health');
    const event = () => proxyEvent(gatewayRequest('GET', '/health', '/health'), null);
    const ok = bufferedAnswer(await health.invoke(event()));
    // A probe's outcome answers for a second: each next probe waits it out to read the store.
    await sleep(HEALTH_OUTCOME_TTL_MS);
    store.fault = 'inventory';
    let unavailable: HttpAnswer;
    try {
      unavailable = bufferedAnswer(await health.invoke(event()));
    } finally {
      store.fault = 'none';
    }
    await sleep(HEALTH_OUTCOME_TTL_MS);
    const again = bufferedAnswer(await health.invoke(event()));

    expect(ok.json).toMatchObject({ status: 'ok' });
    expectErrorBody(unavailable, 503);
    expect(again.statusCode).toBe(200);
  });
});

describe('the streamed listing', () => {
  const listing = (headers: Record<string, string> = {}) => gatewayRequest('GET', '/inventory', '/inventory', { headers });

  it.each<[string, Record<string, string>]>([
    ['plain', {}],
    ['gzip', { 'Accept-Encoding': 'gzip' }],
  ])('streams the same bytes as npm start (%s)', async (_coding, headers) => {
    const streamed = streamedAnswer(await running('ListInventory').invoke(await authorizedEvent(listing(headers))));
    const local = await fromLocalServer('/inventory', headers);

    expect([streamed.statusCode, streamed.complete, streamed.errorType]).toEqual([200, true, undefined]);
    expect(streamed.body.equals(local.body)).toBe(true);
    expect(local.headers).toMatchObject(functionHeaders(streamed.headers));
    const text = headers['Accept-Encoding'] ? gunzipSync(streamed.body).toString('utf8') : streamed.body.toString('utf8');
    expect(JSON.parse(text)).toHaveLength(SEED.length);
  });

  it('answers a store that fails before the first byte with the same Error answer as npm start', async () => {
    const event = await authorizedEvent(listing());
    store.fault = 'inventory';
    let streamed: ReturnType<typeof streamedAnswer>;
    let local: HttpAnswer;
    try {
      streamed = streamedAnswer(await running('ListInventory').invoke(event));
      local = await fromLocalServer('/inventory', {});
    } finally {
      store.fault = 'none';
    }

    expect([streamed.complete, streamed.errorType]).toEqual([true, undefined]);
    expectErrorBody(streamed, 503);
    expect([local.statusCode, JSON.parse(local.body.toString('utf8'))]).toEqual([503, JSON.parse(streamed.body.toString('utf8'))]);
    expect(local.headers).toMatchObject(functionHeaders(streamed.headers));
  });

  it('ends a listing whose store fails after the first byte with the error trailers, logs and counts it, and serves the next invocation', async () => {
    const list = running('ListInventory');
    const event = await authorizedEvent(listing());
    store.fault = 'later pages';
    let cut: ReturnType<typeof streamedAnswer>;
    let local: Awaited<ReturnType<typeof fromLocalServer>>;
    try {
      cut = streamedAnswer(await list.invoke(event));
      local = await fromLocalServer('/inventory', {});
    } finally {
      store.fault = 'none';
    }
    const next = streamedAnswer(await list.invoke(await authorizedEvent(listing())));

    // The chunked request ended with the runtime's error trailers, which API Gateway turns into a cut answer.
    expect([cut.statusCode, cut.complete, cut.errorType]).toEqual([200, true, expect.any(String)]);
    expect(cut.body.toString('utf8').startsWith('[{"petId":')).toBe(true);
    expect(() => JSON.parse(cut.body.toString('utf8'))).toThrow(SyntaxError);
    expect(list.logs()).toContain(STREAM_ABORTED_LOG_MESSAGE);
    expect(list.logs()).toContain(`"${SERVICE_METRICS.streamAborted}":1`);
    // npm start cuts the same answer: its client never sees the chunked body end.
    expect([local.statusCode, local.complete]).toEqual([200, false]);
    // The process lives on and answers the next listing whole.
    expect(list.running).toBe(true);
    expect([next.statusCode, next.complete]).toEqual([200, true]);
    expect(JSON.parse(next.body.toString('utf8'))).toHaveLength(SEED.length);
  });
});

describe('a function whose initialisation fails', () => {
  it('reports the init error to the Runtime API, as Lambda records it, and its process ends', async () => {
    const fn = templateFunctions.find((candidate) => candidate.name === 'ListInventory')!;
    const broken = await FunctionProcess.start(fn, {
      tables,
      storeEndpoint: store.endpoint,
      environment: { [ENV.inventoryTable]: undefined },
    });
    try {
      const report = await broken.runtimeApi.initError;
      expect(report.body.errorMessage).toContain(ENV.inventoryTable);
      expect(report.errorType).toBe(report.body.errorType);
      expect(await broken.exited).not.toBe(0);
      expect(broken.runtimeApi.nextRequests).toBe(0);
    } finally {
      await broken.stop();
    }
  });
});
