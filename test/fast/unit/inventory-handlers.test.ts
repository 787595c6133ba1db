import { JSON_HEADERS } from '../../../functions/http/json.ts';
import { ConditionalCheckFailedException, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { Writable } from 'node:stream';
import { provideLambdaStreaming } from '../../../local/lambda-streaming.ts';
import { createDocumentClient } from '../../../functions/adapters/dynamodb/document-client.ts';
import { INVENTORY_PAGE_SIZE } from '../../../functions/adapters/dynamodb/stored-inventory-item.ts';
import { INVENTORY_SHARDS, inventoryKey } from '../../../functions/adapters/dynamodb/stored-inventory-item.ts';
import { StoreUnavailableError } from '../../../functions/domain/errors.ts';
import type { InventoryCount } from '../../../functions/domain/schemas.ts';
import { TIMEOUT_MARGIN_MS } from '../../../functions/http/http-handler.ts';
import { STREAM_ABORTED_LOG_MESSAGE } from '../../../functions/http/json-array-stream.ts';
import { SERVICE_METRICS } from '../../../functions/logger.ts';
import { routeOf } from '../../../functions/routes.ts';
import { lambdaContext, patchEvent, proxyEvent } from '../../support/events.ts';
import { COUNTERS_TABLE, INVENTORY_TABLE, inventoryHandlers } from '../../support/mocked-handlers.ts';
import { expectAgreeingRateLimitFields } from '../../support/rate-limit-fields.ts';
import { versionedChangeOf } from '../../support/inventory.ts';

// 2026-11-21T12:00:30Z: 30 s into a minute window.
const NOW = Date.UTC(2026, 10, 21, 12, 0, 30);
const MINUTE_RESET = String(Date.UTC(2026, 10, 21, 12, 1, 0) / 1000);

const dynamo = mockClient(DynamoDBDocumentClient);

const handlers = () => inventoryHandlers(NOW);

function parse(body: string) {
  return JSON.parse(body) as Record<string, unknown>;
}

const PETS: InventoryCount[] = Array.from({ length: 40 }, (_, index) => ({
  petId: BigInt(index + 1),
  quantity: index,
  status: 'available',
}));
const PETS_JSON = `[${PETS.map((pet) => `{"petId":${pet.petId},"quantity":${pet.quantity},"status":"available","reserved":0,"available":${pet.quantity}}`).join(',')}]`;

/** Every shard's Query answers its own pets in petId order, `pageSize` to a page, as DynamoDB would. */
function holdInventory(items: readonly InventoryCount[], pageSize = INVENTORY_PAGE_SIZE) {
  for (const shard of INVENTORY_SHARDS) {
    const held = items.filter((item) => inventoryKey(item.petId).shard === shard).sort((a, b) => (a.petId < b.petId ? -1 : 1));
    let answers = dynamo.on(QueryCommand, { TableName: INVENTORY_TABLE, ExpressionAttributeValues: { ':shard': shard } });
    for (let start = 0; start < held.length; start += pageSize) {
      const page = held.slice(start, start + pageSize);
      answers = answers.resolvesOnce({ Items: page, LastEvaluatedKey: inventoryKey(page.at(-1)!.petId) });
    }
    // A page that ends at the Limit says there may be more: the next Query finds nothing.
    answers.resolves({ Items: [] });
  }
}

beforeEach(() => {
  dynamo.reset();
  // First request of the minute (12:00, minute 720 of the day) and of the day: one used of each.
  dynamo.on(UpdateCommand, { TableName: COUNTERS_TABLE }).resolves({ Attributes: { requests: 1, minute720: 1 } });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('listInventory', () => {
  it('queries every shard consistently, page by page, and streams all entries merged by petId, with exact int64 ids', async () => {
    holdInventory(
      [
        { petId: 9_007_199_254_740_993n, quantity: 2, status: 'available' },
        { petId: 7n, quantity: 1, status: 'sold' },
        { petId: 3n, quantity: 0, status: 'pending' },
        { petId: 4n, quantity: 5, status: 'available' },
      ],
      1,
    );

    const response = await handlers().list(proxyEvent(), lambdaContext);

    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(
      '[{"petId":3,"quantity":0,"status":"pending","reserved":0,"available":0},{"petId":4,"quantity":5,"status":"available","reserved":0,"available":5},{"petId":7,"quantity":1,"status":"sold","reserved":0,"available":1},{"petId":9007199254740993,"quantity":2,"status":"available","reserved":0,"available":2}]',
    );
    const queries = dynamo.commandCalls(QueryCommand, { TableName: INVENTORY_TABLE }).map((call) => call.args[0].input);
    expect(new Set(queries.map((input) => input.ExpressionAttributeValues?.[':shard']))).toEqual(new Set(INVENTORY_SHARDS));
    expect(
      queries.every(
        (input) =>
          input.ConsistentRead === true && input.KeyConditionExpression === '#shard = :shard' && input.Limit === INVENTORY_PAGE_SIZE,
      ),
    ).toBe(true);
    // Each pet is alone on its page here, so its shard is read once more, after it: one Query per shard and per pet.
    expect(queries).toHaveLength(INVENTORY_SHARDS.length + 4);
    expect(dynamo).toHaveReceivedCommandTimes(ScanCommand, 0);
  });

  it('answers an empty inventory with an empty array', async () => {
    holdInventory([]);

    const response = await handlers().list(proxyEvent(), lambdaContext);

    expect([response.statusCode, response.body]).toEqual([200, '[]']);
  });

  it('carries the rate-limit headers of the window closest to exhaustion, and says the answer varies with Accept-Encoding', async () => {
    holdInventory([]);

    const response = await handlers().list(proxyEvent(), lambdaContext);

    expect(response.headers).toEqual({
      ...JSON_HEADERS,
      Vary: 'Accept-Encoding',
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '59',
      'X-RateLimit-Reset': MINUTE_RESET,
      'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
      RateLimit: '"minute";r=59;t=30, "day";r=999;t=43170',
      'X-Request-Id': 'request-1',
    });
    expect(expectAgreeingRateLimitFields(response.headers ?? {}, { from: NOW / 1000, to: NOW / 1000 })).toHaveLength(2);
  });

  it.each([
    ['gzip', 'gzip', gunzipSync],
    ['gzip;q=0.5, br', 'br', brotliDecompressSync],
    ['br;q=0, gzip;q=0.1', 'gzip', gunzipSync],
  ] as const)('compresses for Accept-Encoding: %s', async (acceptEncoding, coding, decode) => {
    holdInventory(PETS, 2);

    const response = await handlers().list(proxyEvent({ headers: { 'Accept-Encoding': acceptEncoding } }), lambdaContext);

    expect(response.headers).toMatchObject({ 'Content-Encoding': coding, Vary: 'Accept-Encoding' });
    expect(decode(response.bytes).toString('utf8')).toBe(PETS_JSON);
  });

  it('reads Accept-Encoding on two lines, as API Gateway passes them (the last in headers, both in multiValueHeaders), as one list', async () => {
    holdInventory(PETS, 2);
    const event = proxyEvent({ headers: { 'Accept-Encoding': 'br;q=0' }, multiValueHeaders: { 'Accept-Encoding': ['gzip', 'br;q=0'] } });

    const response = await handlers().list(event, lambdaContext);

    expect(response.headers).toMatchObject({ 'Content-Encoding': 'gzip' });
    expect(gunzipSync(response.bytes).toString('utf8')).toBe(PETS_JSON);
  });

  it.each(['identity', 'gzip;q=0', 'compress'])('sends the text as it is for Accept-Encoding: %s', async (acceptEncoding) => {
    holdInventory(PETS, 2);

    const response = await handlers().list(proxyEvent({ headers: { 'Accept-Encoding': acceptEncoding } }), lambdaContext);

    expect(response.headers).not.toHaveProperty('Content-Encoding');
    expect(response.body).toBe(PETS_JSON);
  });

  it("ends well on a response stream that destroys itself once finished (a Writable's autoDestroy): that is the stream's end, not a cut", async () => {
    holdInventory(PETS, 2);
    provideLambdaStreaming();
    const received: Buffer[] = [];
    const responseStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        received.push(chunk);
        done();
      },
    });

    await handlers().streamedList(proxyEvent(), responseStream, lambdaContext);

    const sent = Buffer.concat(received);
    expect(sent.subarray(sent.indexOf(Buffer.alloc(8)) + 8).toString('utf8')).toBe(PETS_JSON);
    expect(responseStream.destroyed).toBe(true);
  });

  it('answers 503 with Retry-After when the table stays throttled after the SDK retries', async () => {
    dynamo.on(QueryCommand).rejects(new ProvisionedThroughputExceededException({ message: 'throttled', $metadata: {} }));

    const response = await handlers().list(proxyEvent(), lambdaContext);

    expect(response.statusCode).toBe(503);
    expect(parse(response.body)).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The service is temporarily unavailable; retry after the time in Retry-After.',
      status: 503,
    });
    expect(response.headers).toMatchObject({ 'Retry-After': '1', 'X-RateLimit-Remaining': '59', Vary: 'Accept-Encoding' });
  });

  it('answers 503 for a timeout or an unreachable store too', async () => {
    const timeout = Object.assign(new Error('socket timed out'), { name: 'TimeoutError' });
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    dynamo.on(QueryCommand).rejects(timeout);
    const { list } = handlers();
    expect((await list(proxyEvent(), lambdaContext)).statusCode).toBe(503);
    dynamo.on(QueryCommand).rejects(refused);
    expect((await list(proxyEvent(), lambdaContext)).statusCode).toBe(503);
  });

  it('answers a generic 500 for an unexpected failure, keeping the detail in the log only', async () => {
    vi.stubEnv('LOG_LEVEL', 'info');
    const log = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    dynamo.on(QueryCommand).rejects(Object.assign(new Error('One or more parameter values were invalid'), { name: 'ValidationException' }));

    const response = await handlers().list(proxyEvent(), lambdaContext);

    expect(response.statusCode).toBe(500);
    expect(parse(response.body)).toEqual({ code: 'INTERNAL_ERROR', message: 'An unexpected error occurred.', status: 500 });
    expect(response.body).not.toContain('parameter values');
    expect(log.mock.calls.map(([line]) => String(line))).toContainEqual(
      expect.stringContaining('One or more parameter values were invalid'),
    );
  });

  it('refuses a request that carries no authorizer identity', async () => {
    const response = await handlers().list(proxyEvent({ caller: null }), lambdaContext);

    expect(response.statusCode).toBe(401);
    expect(parse(response.body)).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(dynamo).toHaveReceivedCommandTimes(QueryCommand, 0);
  });

  it("refuses two Authorization headers 401 with the key's rate-limit headers: an Allow API Gateway kept for one of them lets such a request in", async () => {
    const response = await handlers().list(
      proxyEvent({ headers: { Authorization: 'Bearer b' }, multiValueHeaders: { Authorization: ['Bearer a', 'Bearer b'] } }),
      lambdaContext,
    );

    expect(response.statusCode).toBe(401);
    expect(parse(response.body)).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(response.headers).toMatchObject({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Reset': MINUTE_RESET });
    expect(dynamo).toHaveReceivedCommandTimes(QueryCommand, 0);
  });
});

describe('a listing that fails after its first byte', () => {
  const FIRST_PAGE = [{ petId: 5n, quantity: 1, status: 'available' as const }];
  let logged: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    vi.stubEnv('LOG_LEVEL', 'info');
    vi.stubEnv('METRICS_DISABLED', 'false');
    logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });

  /** One shard answers a first page and promises more; `next` is what its second page does. */
  function firstPageThen(next: (mock: ReturnType<typeof dynamo.on>) => void) {
    holdInventory([]);
    const shard = dynamo.on(QueryCommand, { ExpressionAttributeValues: { ':shard': inventoryKey(5n).shard } });
    next(shard.resolvesOnce({ Items: FIRST_PAGE, LastEvaluatedKey: inventoryKey(5n) }));
  }

  const metricLines = () => vi.mocked(process.stdout.write).mock.calls.flat().join('\n');

  it('ends the body without its closing bracket: a cut, unparseable answer, logged and counted', async () => {
    firstPageThen((shard) => shard.rejects(new ProvisionedThroughputExceededException({ message: 'throttled', $metadata: {} })));

    const response = await handlers().list(proxyEvent(), lambdaContext);

    expect(response.statusCode).toBe(200);
    expect(response.aborted).toBeInstanceOf(StoreUnavailableError);
    expect(response.body).toBe('[{"petId":5,"quantity":1,"status":"available","reserved":0,"available":1}');
    expect(() => JSON.parse(response.body)).toThrow(SyntaxError);
    expect(logged.mock.calls.flat().join('\n')).toContain(STREAM_ABORTED_LOG_MESSAGE);
    expect(metricLines()).toContain(`"${SERVICE_METRICS.streamAborted}":1`);
  });

  it("is cut at the function's deadline when the store stops answering mid-stream", async () => {
    firstPageThen((shard) => shard.callsFake(() => new Promise(() => undefined)));
    const nearlyOutOfTime = { ...lambdaContext, getRemainingTimeInMillis: () => TIMEOUT_MARGIN_MS + 50 };

    const response = await handlers().list(proxyEvent(), nearlyOutOfTime);

    expect([response.statusCode, response.body]).toEqual([
      200,
      '[{"petId":5,"quantity":1,"status":"available","reserved":0,"available":1}',
    ]);
    expect(String(response.aborted)).toContain('deadline');
    expect(logged.mock.calls.flat().join('\n')).toContain(STREAM_ABORTED_LOG_MESSAGE);
  });

  it('cuts a compressed answer too: an incomplete gzip stream whose text is an unclosed prefix', async () => {
    firstPageThen((shard) => shard.rejects(new Error('boom')));

    const response = await handlers().list(proxyEvent({ headers: { 'Accept-Encoding': 'gzip' } }), lambdaContext);

    expect(response.headers).toMatchObject({ 'Content-Encoding': 'gzip' });
    expect(response.aborted).toBeDefined();
    expect(() => gunzipSync(response.bytes)).toThrow();
    // What the compressor had flushed before the cut (possibly nothing) is a prefix of the text, never the closed array.
    const received = gunzipSync(response.bytes, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
    expect('[{"petId":5,"quantity":1,"status":"available","reserved":0,"available":1}'.startsWith(received)).toBe(true);
    expect(() => JSON.parse(received)).toThrow(SyntaxError);
  });
});

describe('updateInventory', () => {
  it('answers a write the store failed 503 saying the change may have been applied and to retry with the same Idempotency-Key', async () => {
    dynamo
      .on(UpdateCommand, { TableName: INVENTORY_TABLE })
      .rejects(new ProvisionedThroughputExceededException({ message: 'throttled', $metadata: {} }));

    const response = await handlers().update(patchEvent('5', '{"quantity":5}'), lambdaContext);

    expect([response.statusCode, response.headers?.['Retry-After']]).toEqual([503, '1']);
    expect(parse(response.body)).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message:
        'The service is temporarily unavailable, and the change may have been applied: retry after the time in Retry-After with the same Idempotency-Key, which applies it once (without one, read the entry before deciding).',
      status: 503,
    });
  });

  it('sends one conditional UpdateItem that returns the new item, and answers it', async () => {
    dynamo.on(UpdateCommand, { TableName: INVENTORY_TABLE }).resolves({
      Attributes: { petId: 9_007_199_254_740_993n, quantity: 5, status: 'available' },
    });

    const response = await handlers().update(patchEvent('9007199254740993', '{"quantity":5}'), lambdaContext);

    const change = versionedChangeOf({ kind: 'set', requestId: 'request-1', keyId: 'key_test' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('{"petId":9007199254740993,"quantity":5,"status":"available","reserved":0,"available":5}');
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      TableName: INVENTORY_TABLE,
      Key: inventoryKey(9_007_199_254_740_993n),
      UpdateExpression: `SET quantity = :quantity, available = :quantity - if_not_exists(reserved, :zero), ${change.set}`,
      ConditionExpression: 'attribute_exists(petId) AND quantity <> :quantity',
      ExpressionAttributeNames: change.names,
      ExpressionAttributeValues: { ':quantity': 5, ':zero': 0, ...change.values },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    expect(dynamo).toHaveReceivedCommandTimes(GetCommand, 0);
  });

  it('refuses an If-Match of more than 100 entity tags before any store call, with or without an Idempotency-Key', async () => {
    const ifMatch = Array.from({ length: 101 }, (_, index) => `"${index + 1}"`).join(',');
    const event = (headers: Record<string, string>) => {
      const all = { 'Content-Type': 'application/json', 'If-Match': ifMatch, ...headers };
      return {
        ...patchEvent('5', '{"quantity":5}'),
        headers: all,
        multiValueHeaders: Object.fromEntries(Object.entries(all).map(([name, value]) => [name, [value]])),
      };
    };

    const answers = [
      await handlers().update(event({}), lambdaContext),
      await handlers().update(event({ 'Idempotency-Key': 'k1' }), lambdaContext),
    ];

    for (const response of answers)
      expect([response.statusCode, parse(response.body)]).toEqual([
        400,
        { code: 'BAD_REQUEST', message: 'If-Match names 101 entity tags; send at most 100.', status: 400 },
      ]);
    expect(dynamo.calls().filter((call) => (call.args[0].input as { TableName?: string }).TableName !== COUNTERS_TABLE)).toEqual([]);
  });

  it('reads If-Match on two lines, as API Gateway passes them (the last in headers, both in multiValueHeaders), as one list', async () => {
    dynamo
      .on(UpdateCommand, { TableName: INVENTORY_TABLE })
      .resolves({ Attributes: { petId: 5n, quantity: 5, status: 'available', version: 10 } });
    const event = {
      ...patchEvent('5', '{"quantity":5}'),
      headers: { 'Content-Type': 'application/json', 'if-match': '"1"' },
      multiValueHeaders: { 'Content-Type': ['application/json'], 'If-Match': ['"9"'], 'if-match': ['"3", "4"', '"1"'] },
    };

    const response = await handlers().update(event, lambdaContext);

    expect(response.statusCode).toBe(200);
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      TableName: INVENTORY_TABLE,
      ConditionExpression: expect.stringContaining('#version IN (:ifMatch0, :ifMatch1, :ifMatch2, :ifMatch3)'),
      ExpressionAttributeValues: expect.objectContaining({ ':ifMatch0': 9, ':ifMatch1': 3, ':ifMatch2': 4, ':ifMatch3': 1 }),
    });
  });

  it('answers 404 when the condition fails: no entry, and none created', async () => {
    dynamo
      .on(UpdateCommand, { TableName: INVENTORY_TABLE })
      .rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));

    const response = await handlers().update(patchEvent('77', '{"quantity":5}'), lambdaContext);

    expect(response.statusCode).toBe(404);
    expect(parse(response.body)).toEqual({ code: 'PET_NOT_FOUND', message: 'No inventory entry exists for pet 77.', status: 404 });
    expect(response.headers).toMatchObject({ 'X-RateLimit-Remaining': '59' });
  });

  it.each([
    ['no body', null, 'INVALID_BODY'],
    ['an empty body', '', 'INVALID_BODY'],
    ['malformed JSON', '{"quantity": 5', 'MALFORMED_JSON'],
    ['a forbidden __proto__ key', '{"__proto__": {"quantity": 1}}', 'MALFORMED_JSON'],
    ['a constructor.prototype key', '{"constructor": {"prototype": {}}}', 'MALFORMED_JSON'],
    ['a constructor.prototype key beside the quantity', '{"quantity": 1, "note": {"constructor": {"prototype": null}}}', 'MALFORMED_JSON'],
    ['an empty object', '{}', 'INVALID_BODY'],
    ['a null quantity', '{"quantity": null}', 'INVALID_BODY'],
    ['a negative quantity', '{"quantity": -1}', 'INVALID_BODY'],
    ['a fractional quantity', '{"quantity": 1.5}', 'INVALID_BODY'],
    ['a string quantity', '{"quantity": "5"}', 'INVALID_BODY'],
    ['a boolean quantity', '{"quantity": true}', 'INVALID_BODY'],
    ['a quantity above int32', '{"quantity": 2147483648}', 'INVALID_BODY'],
    ['an unknown field', '{"quantity": 1, "status": "sold"}', 'INVALID_BODY'],
    ['an array', '[{"quantity": 1}]', 'INVALID_BODY'],
    ['a bare number', '5', 'INVALID_BODY'],
  ])('answers 400 for %s and writes nothing', async (_case, body, code) => {
    const response = await handlers().update(patchEvent('1', body), lambdaContext);

    expect(response.statusCode).toBe(400);
    expect(parse(response.body)).toMatchObject({ code, status: 400 });
    expect(dynamo.commandCalls(UpdateCommand, { TableName: INVENTORY_TABLE })).toHaveLength(0);
  });

  it.each([
    ['1.0000000000000001', 'quantity: 1.0000000000000001 is not written as an integer'],
    ['1.0', 'quantity: 1.0 is not written as an integer'],
    ['1e0', 'quantity: 1e0 is not written as an integer'],
    ['-0', 'quantity: is written -0; write 0'],
  ])('refuses a quantity written %s, whose value is an integer but whose text is not, naming the field', async (number, message) => {
    const response = await handlers().update(patchEvent('1', `{"quantity": ${number}}`), lambdaContext);

    expect([response.statusCode, parse(response.body).code]).toEqual([400, 'INVALID_BODY']);
    expect(parse(response.body).message).toContain(message);
    expect(dynamo.commandCalls(UpdateCommand, { TableName: INVENTORY_TABLE })).toHaveLength(0);
  });

  it('refuses two Content-Type lines as API Gateway passes them (the last in headers, both in multiValueHeaders), and writes nothing', async () => {
    const event = {
      ...patchEvent('1', '{"quantity": 1}'),
      headers: { 'Content-Type': 'application/json' },
      multiValueHeaders: { 'Content-Type': ['text/plain', 'application/json'] },
    };

    const response = await handlers().update(event, lambdaContext);

    expect([response.statusCode, parse(response.body)]).toEqual([
      400,
      { code: 'BAD_REQUEST', message: 'The request carries 2 Content-Type headers; send exactly one.', status: 400 },
    ]);
    expect(response.headers).toMatchObject({ 'X-RateLimit-Limit': '60' });
    expect(dynamo.commandCalls(UpdateCommand, { TableName: INVENTORY_TABLE })).toHaveLength(0);
  });

  it('names the field at fault in the message', async () => {
    const response = await handlers().update(patchEvent('1', '{"quantity": -1}'), lambdaContext);

    expect(parse(response.body).message).toMatch(/^quantity: /);
  });

  it.each(['0', '-1', 'abc', '007', '+7', '7.0', '1e3', '9223372036854775808', ''])(
    'answers 400 INVALID_PET_ID for petId "%s"',
    async (petId) => {
      const response = await handlers().update(patchEvent(petId, '{"quantity": 1}'), lambdaContext);

      expect(response.statusCode).toBe(400);
      expect(parse(response.body)).toMatchObject({ code: 'INVALID_PET_ID', status: 400 });
      expect(dynamo.commandCalls(UpdateCommand, { TableName: INVENTORY_TABLE })).toHaveLength(0);
    },
  );

  it('answers 415 for a body that is not declared as JSON', async () => {
    const response = await handlers().update(patchEvent('1', '{"quantity": 1}', 'text/plain'), lambdaContext);

    expect(response.statusCode).toBe(415);
    expect(parse(response.body)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 });
  });

  it.each([
    'application/json; charset=utf-8',
    'application/merge-patch+json',
    // RFC 9110 lets whitespace precede a parameter's semicolon, and RFC 6838 a subtype hold "_", "!", "#", "$", "&" and "^".
    'application/json ; charset=utf-8',
    'application/vnd.pet_store+json',
  ])('accepts the JSON media type %s', async (contentType) => {
    dynamo.on(UpdateCommand, { TableName: INVENTORY_TABLE }).resolves({ Attributes: { petId: 1n, quantity: 1, status: 'sold' } });

    const response = await handlers().update(patchEvent('1', '{"quantity": 1}', contentType), lambdaContext);

    expect([response.statusCode, parse(response.body)]).toEqual([
      200,
      { petId: 1, quantity: 1, status: 'sold', reserved: 0, available: 1 },
    ]);
  });

  it('answers 413 above the body size cap', async () => {
    const body = JSON.stringify({ quantity: 1, padding: 'x'.repeat(routeOf('updateInventory').maxBodyBytes) });

    const response = await handlers().update(patchEvent('1', body), lambdaContext);

    expect(response.statusCode).toBe(413);
    expect(parse(response.body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
  });

  it('reads a base64-encoded body as API Gateway may send it', async () => {
    dynamo.on(UpdateCommand, { TableName: INVENTORY_TABLE }).resolves({ Attributes: { petId: 1n, quantity: 9, status: 'sold' } });
    const event = { ...patchEvent('1', Buffer.from('{"quantity": 9}').toString('base64')), isBase64Encoded: true };

    const response = await handlers().update(event, lambdaContext);

    expect(response.statusCode).toBe(200);
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      TableName: INVENTORY_TABLE,
      ExpressionAttributeValues: expect.objectContaining({ ':quantity': 9 }),
    });
  });

  it('reads a body that starts with a byte order mark, as RFC 8259 lets a reader', async () => {
    dynamo.on(UpdateCommand, { TableName: INVENTORY_TABLE }).resolves({ Attributes: { petId: 1n, quantity: 7, status: 'sold' } });

    const response = await handlers().update(patchEvent('1', '\uFEFF{"quantity": 7}'), lambdaContext);

    expect(response.statusCode).toBe(200);
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      TableName: INVENTORY_TABLE,
      ExpressionAttributeValues: expect.objectContaining({ ':quantity': 7 }),
    });
  });

  it('answers 503 with Retry-After when the update is throttled', async () => {
    dynamo
      .on(UpdateCommand, { TableName: INVENTORY_TABLE })
      .rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));

    const response = await handlers().update(patchEvent('1', '{"quantity": 1}'), lambdaContext);

    expect(response.statusCode).toBe(503);
    expect(response.headers).toMatchObject({ 'Retry-After': '1' });
  });
});

describe('the DynamoDB client', () => {
  it('retries a bounded number of times with the standard backoff', async () => {
    const client = createDocumentClient({ endpoint: 'http://127.0.0.1:1', profile: 'lambda' });

    expect(await client.config.maxAttempts()).toBe(3);
    expect(await client.config.retryStrategy()).toMatchObject({ mode: 'standard' });
  });
});

describe('the request deadline', () => {
  it('answers 503 with the rate-limit headers, in time, when the store is still busy near the Lambda timeout', async () => {
    dynamo.on(QueryCommand).callsFake(() => new Promise(() => undefined));
    const nearlyOutOfTime = { ...lambdaContext, getRemainingTimeInMillis: () => TIMEOUT_MARGIN_MS + 50 };

    const response = await handlers().list(proxyEvent(), nearlyOutOfTime);

    expect(response.statusCode).toBe(503);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    expect(response.headers).toMatchObject({ 'Retry-After': '1', 'X-RateLimit-Remaining': '59' });
  });
});
