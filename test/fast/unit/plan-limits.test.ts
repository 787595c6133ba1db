import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createChangeFeedRepository } from '../../../functions/adapters/dynamodb/change-feed-repository.ts';
import { createDocumentClient } from '../../../functions/adapters/dynamodb/document-client.ts';
import { createHistoryRepository } from '../../../functions/adapters/dynamodb/history-repository.ts';
import { createInventoryRepository } from '../../../functions/adapters/dynamodb/inventory-repository.ts';
import { createUsageCounterRepository } from '../../../functions/adapters/dynamodb/usage-counter-repository.ts';
import { PlanLimiter } from '../../../functions/domain/plan-limiter.ts';
import { getInventoryItem } from '../../../functions/operations/get-inventory-item.ts';
import { getPetById } from '../../../functions/operations/get-pet-by-id.ts';
import { getLowStockThreshold } from '../../../functions/operations/get-low-stock-threshold.ts';
import { getReservation } from '../../../functions/operations/get-reservation.ts';
import { createLowStockThresholdRepository } from '../../../functions/adapters/dynamodb/low-stock-threshold-repository.ts';
import { reservationsPart } from '../../../functions/parts/reservations.ts';
import { listInventoryChangeFeed } from '../../../functions/operations/list-inventory-change-feed.ts';
import { listInventoryChanges } from '../../../functions/operations/list-inventory-changes.ts';
import { lambdaContext, patchEvent, proxyEvent } from '../../support/events.ts';
import { COUNTERS_TABLE, INVENTORY_TABLE, inventoryHandlers } from '../../support/mocked-handlers.ts';
import { expectAgreeingRateLimitFields, planPolicy } from '../../support/rate-limit-fields.ts';

/** The structured fields of a free key's answer, parsed: both windows' policy and state, agreeing with X-RateLimit-*. */
const windowsOf = (headers: Record<string, string | number | boolean> | undefined) =>
  expectAgreeingRateLimitFields(headers ?? {}, { from: NOW_SECONDS, to: NOW_SECONDS });

const NOW = Date.UTC(2026, 10, 21, 12, 0, 45);
const NOW_SECONDS = Math.floor(NOW / 1000);
const MINUTE_START = Date.UTC(2026, 10, 21, 12, 0) / 1000;
const DAY_START = Date.UTC(2026, 10, 21) / 1000;
const NEXT_DAY_START = DAY_START + 86_400;

const dynamo = mockClient(DynamoDBDocumentClient);

const listHandler = (now = NOW) => inventoryHandlers(now, { rejectionsPerMinute: 100, durationSeconds: 900 }).list;

const USAGE_ITEM = { counterId: `key_test#usage#${DAY_START}` };
/** 12:00 is minute 720 of the UTC day; each count forgets minutes 718 back to 659, keeping 719 for clocks a little behind. */
const THIS_MINUTE = 'minute720';
const FORGOTTEN_MINUTES = Array.from({ length: 60 }, (_, index) => `minute${718 - index}`).join(', ');

/** The one counting command: the ban, both windows, one item, one write. */
const COUNTING_COMMAND = {
  TableName: COUNTERS_TABLE,
  Key: USAGE_ITEM,
  UpdateExpression: `SET expiresAt = :expiresAt ADD requests :one, minute720 :one REMOVE ${FORGOTTEN_MINUTES}`,
  ConditionExpression:
    '(attribute_not_exists(minute720) OR minute720 < :perMinute) AND (attribute_not_exists(requests) OR requests < :perDay)' +
    ' AND (attribute_not_exists(bannedUntil) OR bannedUntil <= :now) AND attribute_not_exists(revoked)',
  ExpressionAttributeValues: { ':one': 1, ':perMinute': 60, ':perDay': 1_000, ':now': NOW_SECONDS, ':expiresAt': NEXT_DAY_START + 3_600 },
  ReturnValues: 'UPDATED_NEW',
  ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
} as const;

beforeEach(() => {
  dynamo.reset();
  dynamo.on(QueryCommand).resolves({ Items: [] });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** The counting write refused, carrying the usage item as it stands (ReturnValuesOnConditionCheckFailure). */
function conditionFailedOn(item: Record<string, number | boolean>, key: { counterId: string } = USAGE_ITEM) {
  return new ConditionalCheckFailedException({
    message: 'The conditional request failed',
    $metadata: {},
    Item: marshall({ ...key, ...item }),
  });
}

/** Matches the counting write on a usage item, not the ban written on the same item. */
const countingWriteOn = (key: { counterId: string }) => ({ Key: key, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const });

/** This minute's allowance is used up. */
function fullMinute() {
  dynamo.on(UpdateCommand, countingWriteOn(USAGE_ITEM)).rejects(conditionFailedOn({ [THIS_MINUTE]: 60, requests: 500 }));
}

/** Everything the request sent to the counters table, in order. */
const countingCalls = () => dynamo.calls().filter((call) => (call.args[0].input as { TableName?: string }).TableName === COUNTERS_TABLE);

describe('plan limits', () => {
  it('counts an admitted request in one conditional write that also checks the ban, and reads nothing', async () => {
    dynamo.on(UpdateCommand, { Key: USAGE_ITEM }).resolves({ Attributes: { requests: 8, [THIS_MINUTE]: 3 } });

    const response = await listHandler()(proxyEvent(), lambdaContext);

    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, COUNTING_COMMAND);
    expect(countingCalls()).toHaveLength(1);
    expect(dynamo).toHaveReceivedCommandTimes(GetCommand, 0);
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '57' });
    expect(windowsOf(response.headers)).toEqual([
      { ...planPolicy(60, 1_000)[0], remaining: 57, secondsLeft: 15 },
      { ...planPolicy(60, 1_000)[1], remaining: 992, secondsLeft: NEXT_DAY_START - NOW_SECONDS },
    ]);
    expect(response.headers).toMatchObject({
      'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
      RateLimit: `"minute";r=57;t=15, "day";r=992;t=${NEXT_DAY_START - NOW_SECONDS}`,
    });
  });

  it("counts the first request of a minute with the same single write: the minute's attribute starts at one", async () => {
    dynamo.on(UpdateCommand, { Key: USAGE_ITEM }).resolves({ Attributes: { requests: 999, [THIS_MINUTE]: 1 } });

    const response = await listHandler()(proxyEvent(), lambdaContext);

    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, COUNTING_COMMAND);
    expect(countingCalls()).toHaveLength(1);
    expect(response.headers).toMatchObject({
      'X-RateLimit-Limit': '1000',
      'X-RateLimit-Remaining': '1',
      'X-RateLimit-Reset': String(NEXT_DAY_START),
    });
    expect(windowsOf(response.headers).map(({ name, remaining }) => [name, remaining])).toEqual([
      ['minute', 59],
      ['day', 1],
    ]);
  });

  it('answers 429 without touching the inventory and records the rejection, counting nothing', async () => {
    fullMinute();
    dynamo.on(UpdateCommand, { Key: { counterId: `key_test#rejections#${MINUTE_START}` } }).resolves({ Attributes: { rejected: 1 } });

    const response = await listHandler()(proxyEvent(), lambdaContext);

    expect(response.statusCode).toBe(429);
    expect(JSON.parse(response.body)).toEqual({
      code: 'RATE_LIMIT_EXCEEDED',
      message:
        'The per-minute request limit of this API key (60) is used up; retry after the time in Retry-After, with exponential backoff.',
      status: 429,
    });
    expect(response.headers).toMatchObject({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(MINUTE_START + 60),
      'Retry-After': '15',
    });
    // The full minute has nothing left; the day what its count leaves.
    expect(windowsOf(response.headers)).toEqual([
      { ...planPolicy(60, 1_000)[0], remaining: 0, secondsLeft: 15 },
      { ...planPolicy(60, 1_000)[1], remaining: 500, secondsLeft: NEXT_DAY_START - NOW_SECONDS },
    ]);
    expect(dynamo).toHaveReceivedCommandTimes(QueryCommand, 0);
    // The refused count, which carried the item, then the rejection: no read.
    expect(countingCalls().map((call) => call.args[0].input)).toEqual([
      COUNTING_COMMAND,
      expect.objectContaining({
        Key: { counterId: `key_test#rejections#${MINUTE_START}` },
        UpdateExpression: 'ADD rejected :one SET expiresAt = :expiresAt',
      }),
    ]);
  });

  it('answers 429 QUOTA_EXCEEDED when the day is used up, even in a fresh minute', async () => {
    dynamo.on(UpdateCommand, countingWriteOn(USAGE_ITEM)).rejects(conditionFailedOn({ requests: 1_000, minute719: 4 }));
    dynamo.on(UpdateCommand, { Key: { counterId: `key_test#rejections#${MINUTE_START}` } }).resolves({ Attributes: { rejected: 1 } });

    const response = await listHandler()(proxyEvent(), lambdaContext);

    expect(response.statusCode).toBe(429);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect(response.headers).toMatchObject({ 'X-RateLimit-Limit': '1000', 'X-RateLimit-Reset': String(NEXT_DAY_START) });
    expect(windowsOf(response.headers).map(({ name, remaining }) => [name, remaining])).toEqual([
      ['minute', 60],
      ['day', 0],
    ]);
  });

  it('answers a banned key from the refused counting write alone: no rejection counted, nothing given back', async () => {
    const bannedUntil = NOW_SECONDS + 300;
    dynamo.on(UpdateCommand, countingWriteOn(USAGE_ITEM)).rejects(conditionFailedOn({ [THIS_MINUTE]: 2, requests: 40, bannedUntil }));

    const response = await listHandler()(proxyEvent(), lambdaContext);

    expect(response.statusCode).toBe(429);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'API_KEY_TEMPORARILY_BANNED' });
    expect(response.headers).toMatchObject({
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(bannedUntil),
      'Retry-After': '300',
    });
    // Nothing is admitted before the ban ends: every window is empty until then.
    expect(windowsOf(response.headers).map(({ name, remaining, secondsLeft }) => [name, remaining, secondsLeft])).toEqual([
      ['minute', 0, 300],
      ['day', 0, 300],
    ]);
    expect(countingCalls().map((call) => call.args[0].input)).toEqual([COUNTING_COMMAND]);
  });

  it('answers a revoked key 401 from the refused counting write alone, whatever the authorizer still knew of the key', async () => {
    dynamo.on(UpdateCommand, countingWriteOn(USAGE_ITEM)).rejects(conditionFailedOn({ [THIS_MINUTE]: 2, requests: 40, revoked: true }));

    const response = await listHandler()(proxyEvent(), lambdaContext);

    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    // The key's windows as they stand: the refused request took nothing from them.
    expect(response.headers).toMatchObject({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '58' });
    expect(countingCalls().map((call) => call.args[0].input)).toEqual([COUNTING_COMMAND]);
    expect(dynamo).toHaveReceivedCommandTimes(QueryCommand, 0);
  });

  it('bans the key when its 429s in one minute reach the threshold, on the usage items of the days the ban reaches', async () => {
    fullMinute();
    dynamo.on(UpdateCommand, { Key: { counterId: `key_test#rejections#${MINUTE_START}` } }).resolves({ Attributes: { rejected: 100 } });

    expect((await listHandler()(proxyEvent(), lambdaContext)).statusCode).toBe(429);

    const bannedUntil = NOW_SECONDS + 900;
    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      TableName: COUNTERS_TABLE,
      Item: { counterId: 'key_test#ban', bannedUntil, expiresAt: bannedUntil },
    });
    // A ban lasts at most a day, so it may reach back to the day before its end: that one is written too.
    for (const dayStart of [DAY_START - 86_400, DAY_START]) {
      expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
        TableName: COUNTERS_TABLE,
        Key: { counterId: `key_test#usage#${dayStart}` },
        UpdateExpression: 'SET bannedUntil = :value, expiresAt = if_not_exists(expiresAt, :expiresAt)',
        ExpressionAttributeValues: { ':value': bannedUntil, ':expiresAt': dayStart + 86_400 + 3_600 },
      });
    }
  });

  it("holds a ban that spans midnight: it is written on the next day's item, whose counting write it refuses", async () => {
    const beforeMidnight = Date.UTC(2026, 10, 21, 23, 55, 0);
    const afterMidnight = Date.UTC(2026, 10, 22, 0, 1, 0);
    const bannedUntil = beforeMidnight / 1000 + 900;
    const nextDayItem = { counterId: `key_test#usage#${NEXT_DAY_START}` };
    dynamo
      .on(UpdateCommand, countingWriteOn({ counterId: `key_test#usage#${DAY_START}` }))
      .rejects(conditionFailedOn({ minute1435: 60, requests: 700 }));
    dynamo
      .on(UpdateCommand, { Key: { counterId: `key_test#rejections#${beforeMidnight / 1000}` } })
      .resolves({ Attributes: { rejected: 100 } });

    expect((await listHandler(beforeMidnight)(proxyEvent(), lambdaContext)).statusCode).toBe(429);

    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      Key: nextDayItem,
      UpdateExpression: 'SET bannedUntil = :value, expiresAt = if_not_exists(expiresAt, :expiresAt)',
      ExpressionAttributeValues: { ':value': bannedUntil, ':expiresAt': NEXT_DAY_START + 86_400 + 3_600 },
    });

    dynamo.reset();
    dynamo
      .on(UpdateCommand, countingWriteOn(nextDayItem))
      .rejects(conditionFailedOn({ bannedUntil, expiresAt: NEXT_DAY_START + 86_400 + 3_600 }, nextDayItem));

    const response = await listHandler(afterMidnight)(proxyEvent(), lambdaContext);

    expect(response.statusCode).toBe(429);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'API_KEY_TEMPORARILY_BANNED' });
    expect(response.headers).toMatchObject({ 'Retry-After': String(bannedUntil - afterMidnight / 1000) });
    expect(countingCalls().map((call) => call.args[0].input)).toEqual([
      expect.objectContaining({
        Key: nextDayItem,
        UpdateExpression: 'SET expiresAt = :expiresAt ADD requests :one, minute1 :one',
        ConditionExpression: expect.stringContaining('(attribute_not_exists(bannedUntil) OR bannedUntil <= :now)'),
        ExpressionAttributeValues: expect.objectContaining({ ':now': afterMidnight / 1000 }),
      }),
    ]);
  });

  it('still answers 429 when the rejection cannot be recorded', async () => {
    fullMinute();
    dynamo
      .on(UpdateCommand, { Key: { counterId: `key_test#rejections#${MINUTE_START}` } })
      .rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));

    const response = await listHandler()(proxyEvent(), lambdaContext);

    expect(response.statusCode).toBe(429);
    expect(response.headers).toMatchObject({ 'X-RateLimit-Remaining': '0' });
    expect(dynamo).toHaveReceivedCommandTimes(QueryCommand, 0);
  });

  it('serves the request (fail-open) and emits a metric when the counters are unavailable', async () => {
    vi.stubEnv('METRICS_DISABLED', 'false');
    const log = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    dynamo
      .on(UpdateCommand, { TableName: COUNTERS_TABLE })
      .rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));

    const response = await listHandler()(proxyEvent(), lambdaContext);

    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '60',
      'X-RateLimit-Reset': String(MINUTE_START + 60),
    });
    expect(windowsOf(response.headers).map(({ name, remaining }) => [name, remaining])).toEqual([
      ['minute', 60],
      ['day', 1_000],
    ]);
    expect(log.mock.calls.map(([line]) => String(line))).toContainEqual(expect.stringContaining('"UsageCountingUnavailable":1'));
  });
});

describe("a read's count and the read in one round trip", () => {
  const HISTORY_TABLE = 'history-table';
  const FEED_TABLE = 'feed-table';
  const RESERVATIONS_TABLE = 'reservations-table';
  const RESERVATION_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
  /** Every read operation: each reads while its request is counted. */
  const READS = [
    'getInventoryItem',
    'getPetById',
    'listInventoryChanges',
    'listInventoryChangeFeed',
    'getReservation',
    'getLowStockThreshold',
  ] as const;
  /** Each store call takes this long: long enough that calls made one after the other never overlap. */
  const CALL_MS = 30;

  function readHandlers() {
    const client = createDocumentClient({ endpoint: 'http://127.0.0.1:1' });
    const limiter = new PlanLimiter(createUsageCounterRepository(client, COUNTERS_TABLE), undefined, () => NOW);
    const inventory = createInventoryRepository(client, INVENTORY_TABLE);
    return {
      getInventoryItem: { handler: getInventoryItem.handler({ inventory, limiter }), event: itemEvent('/inventory/{petId}') },
      getPetById: {
        handler: getPetById.handler({ inventory, limiter, petsSunsetAt: new Date(Date.UTC(2027, 6, 1)) }),
        event: itemEvent('/pets/{petId}'),
      },
      listInventoryChanges: {
        handler: listInventoryChanges.handler({
          inventory,
          history: createHistoryRepository(client, HISTORY_TABLE, 400),
          limiter,
        }),
        event: itemEvent('/inventory/{petId}/changes'),
      },
      listInventoryChangeFeed: {
        handler: listInventoryChangeFeed.handler({ changeFeed: createChangeFeedRepository(client, FEED_TABLE, 400), limiter }),
        event: proxyEvent({ resource: '/inventory/changes', path: '/inventory/changes' }),
      },
      getReservation: {
        handler: getReservation.handler({
          reservations: reservationsPart({
            stores: { client } as never,
            config: {
              inventoryTable: INVENTORY_TABLE,
              idempotencyRecordsTable: 'idempotency-table',
              reservationsTable: RESERVATIONS_TABLE,
            } as never,
          }),
          limiter,
        }),
        event: proxyEvent({
          resource: '/inventory/reservations/{reservationId}',
          path: `/inventory/reservations/${RESERVATION_ID}`,
          pathParameters: { reservationId: RESERVATION_ID },
        }),
      },
      getLowStockThreshold: {
        handler: getLowStockThreshold.handler({ thresholds: createLowStockThresholdRepository(client, INVENTORY_TABLE), limiter }),
        event: itemEvent('/inventory/{petId}/low-stock-threshold'),
      },
    };
  }

  function itemEvent(resource: string) {
    return proxyEvent({ resource, path: resource.replace('{petId}', '7'), pathParameters: { petId: '7' } });
  }

  /** Every call the store received, with when it started and ended, answering each after CALL_MS. */
  function slowStore(counting: () => Promise<unknown>) {
    const calls: { table: string; startedAt: number; endedAt: number }[] = [];
    const slowly = (answer: () => Promise<unknown>) => async (input: { TableName?: string }) => {
      const call = { table: input.TableName ?? '', startedAt: performance.now(), endedAt: Number.POSITIVE_INFINITY };
      calls.push(call);
      await new Promise((resolve) => setTimeout(resolve, CALL_MS));
      call.endedAt = performance.now();
      return answer();
    };
    const item = { petId: 7n, quantity: 3, status: 'available', version: 4, lowStockThreshold: 2 };
    const reservation = {
      reservationId: RESERVATION_ID,
      status: 'active',
      items: [{ petId: 7, quantity: 1 }],
      expiresAt: NOW + 60_000,
      createdAt: NOW,
      keyId: 'key_test',
      requestId: 'request-1',
      idempotencyKey: 'cart-7',
    };
    dynamo.on(UpdateCommand, countingWriteOn(USAGE_ITEM)).callsFake(slowly(counting));
    dynamo.on(GetCommand, { TableName: INVENTORY_TABLE }).callsFake(slowly(async () => ({ Item: item })));
    dynamo.on(GetCommand, { TableName: RESERVATIONS_TABLE }).callsFake(slowly(async () => ({ Item: reservation })));
    dynamo.on(QueryCommand).callsFake(slowly(async () => ({ Items: [] })));
    dynamo.on(UpdateCommand, { Key: { counterId: `key_test#rejections#${MINUTE_START}` } }).resolves({ Attributes: { rejected: 1 } });
    dynamo
      .on(UpdateCommand, { TableName: INVENTORY_TABLE })
      .callsFake(slowly(async () => ({ Attributes: { ...item, quantity: 5, version: 5 } })));
    return calls;
  }

  const admitted = async () => ({ Attributes: { requests: 8, [THIS_MINUTE]: 3 } });

  it.each(READS)('%s sends its read while its counting write is in flight, and answers 200 with both', async (operation) => {
    const calls = slowStore(admitted);
    const { handler, event } = readHandlers()[operation];

    const response = await handler(event, lambdaContext);

    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'X-RateLimit-Remaining': '57' });
    const counting = calls.filter((call) => call.table === COUNTERS_TABLE);
    const reads = calls.filter((call) => call.table !== COUNTERS_TABLE);
    expect(counting).toHaveLength(1);
    expect(reads.length).toBeGreaterThan(0);
    // Every read started before the counting write ended: the two were in flight at once.
    for (const read of reads) expect(read.startedAt).toBeLessThan(counting[0]!.endedAt);
  });

  it.each(READS)("%s answers an over-limit request 429 without the read's data, the read made and dropped", async (operation) => {
    const calls = slowStore(() => Promise.reject(conditionFailedOn({ [THIS_MINUTE]: 60, requests: 500 })));
    const { handler, event } = readHandlers()[operation];

    const response = await handler(event, lambdaContext);

    expect(response.statusCode).toBe(429);
    expect(JSON.parse(response.body)).toEqual({ code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String), status: 429 });
    expect(response.body).not.toMatch(/petId|quantity|changes|reservationId|threshold/);
    expect(calls.some((call) => call.table !== COUNTERS_TABLE)).toBe(true);
  });

  it('keeps a write behind its count: the update is sent only once the counting write has answered', async () => {
    const calls = slowStore(admitted);

    const response = await inventoryHandlers(NOW).update(patchEvent('7', '{"quantity": 5}'), lambdaContext);

    expect(response.statusCode).toBe(200);
    const [counting] = calls.filter((call) => call.table === COUNTERS_TABLE);
    const writes = calls.filter((call) => call.table === INVENTORY_TABLE);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.startedAt).toBeGreaterThanOrEqual(counting!.endedAt);
  });
});
