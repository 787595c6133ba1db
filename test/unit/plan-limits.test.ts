import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lambdaContext, proxyEvent } from '../support/events.ts';
import { COUNTERS_TABLE, inventoryHandlers } from '../support/mocked-handlers.ts';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 45);
const MINUTE_START = Date.UTC(2026, 10, 21, 12, 0) / 1000;
const DAY_START = Date.UTC(2026, 10, 21) / 1000;

const dynamo = mockClient(DynamoDBDocumentClient);

const listHandler = () => inventoryHandlers(NOW, { rejectionsPerMinute: 100, durationSeconds: 900 }).list;

const USAGE_ITEM = { counterId: `key_test#usage#${DAY_START}` };
const SAME_MINUTE = 'ADD requests :one, minuteRequests :one';
const NEW_MINUTE = 'SET minuteStartsAt = :minute, minuteRequests = :one, expiresAt = :expiresAt ADD requests :one';

beforeEach(() => {
  dynamo.reset();
  dynamo.on(ScanCommand).resolves({ Items: [] });
  dynamo.on(GetCommand, { TableName: COUNTERS_TABLE, Key: { counterId: 'key_test#ban' } }).resolves({});
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** The counting write refused, carrying the usage item as it stands (ReturnValuesOnConditionCheckFailure). */
function conditionFailedOn(item: Record<string, number>) {
  return new ConditionalCheckFailedException({
    message: 'The conditional request failed',
    $metadata: {},
    Item: marshall({ ...USAGE_ITEM, ...item }),
  });
}

/** This minute's allowance is used up. */
function fullMinute() {
  dynamo.on(UpdateCommand, { UpdateExpression: SAME_MINUTE }).rejects(conditionFailedOn({ minuteStartsAt: MINUTE_START, minuteRequests: 60, requests: 500 }));
}

describe('plan limits', () => {
  it('counts both windows in one conditional write on the key\'s usage item, beside a consistent read of its ban', async () => {
    dynamo.on(UpdateCommand, { UpdateExpression: SAME_MINUTE }).resolves({ Attributes: { requests: 8, minuteRequests: 3 } });

    const response = await listHandler()(proxyEvent(), lambdaContext);

    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      TableName: COUNTERS_TABLE,
      Key: USAGE_ITEM,
      UpdateExpression: SAME_MINUTE,
      ConditionExpression: 'minuteStartsAt = :minute AND minuteRequests < :perMinute AND requests < :perDay',
      ExpressionAttributeValues: { ':one': 1, ':minute': MINUTE_START, ':perMinute': 60, ':perDay': 1_000 },
      ReturnValues: 'UPDATED_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    expect(dynamo).toHaveReceivedCommandWith(GetCommand, { TableName: COUNTERS_TABLE, Key: { counterId: 'key_test#ban' }, ConsistentRead: true });
    expect(dynamo).toHaveReceivedCommandTimes(UpdateCommand, 1);
    expect(response.headers).toMatchObject({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '57' });
  });

  it('starts the minute over on the first request of a new minute, still under the daily limit', async () => {
    dynamo.on(UpdateCommand, { UpdateExpression: SAME_MINUTE }).rejects(conditionFailedOn({ minuteStartsAt: MINUTE_START - 60, minuteRequests: 60, requests: 998 }));
    dynamo.on(UpdateCommand, { UpdateExpression: NEW_MINUTE }).resolves({ Attributes: { requests: 999, minuteRequests: 1 } });

    const response = await listHandler()(proxyEvent(), lambdaContext);

    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      Key: USAGE_ITEM,
      UpdateExpression: NEW_MINUTE,
      ConditionExpression: '(attribute_not_exists(minuteStartsAt) OR minuteStartsAt < :minute) AND (attribute_not_exists(requests) OR requests < :perDay)',
      ExpressionAttributeValues: { ':one': 1, ':minute': MINUTE_START, ':perDay': 1_000, ':expiresAt': DAY_START + 86_400 + 3600 },
    });
    expect(response.headers).toMatchObject({ 'X-RateLimit-Limit': '1000', 'X-RateLimit-Remaining': '1', 'X-RateLimit-Reset': String(DAY_START + 86_400) });
    expect(dynamo.commandCalls(GetCommand, { Key: USAGE_ITEM })).toHaveLength(0);
  });

  it('answers 429 without touching the inventory and records the rejection, counting nothing', async () => {
    fullMinute();
    dynamo.on(UpdateCommand, { Key: { counterId: `key_test#rejections#${MINUTE_START}` } }).resolves({ Attributes: { rejected: 1 } });

    const response = await listHandler()(proxyEvent(), lambdaContext);

    expect(response.statusCode).toBe(429);
    expect(JSON.parse(response.body)).toEqual({
      code: 'RATE_LIMIT_EXCEEDED',
      message: 'The per-minute request limit of this API key (60) is used up; retry after the time in Retry-After, with exponential backoff.',
      status: 429,
    });
    expect(response.headers).toMatchObject({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(MINUTE_START + 60),
      'Retry-After': '15',
    });
    expect(dynamo).toHaveReceivedCommandTimes(ScanCommand, 0);
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      Key: { counterId: `key_test#rejections#${MINUTE_START}` },
      UpdateExpression: 'ADD rejected :one SET expiresAt = :expiresAt',
    });
    // The refused count and the rejection: the refusal carried the item, so no second write and no read.
    expect(dynamo).toHaveReceivedCommandTimes(UpdateCommand, 2);
    expect(dynamo.commandCalls(UpdateCommand, { UpdateExpression: NEW_MINUTE })).toHaveLength(0);
    expect(dynamo.commandCalls(GetCommand, { Key: USAGE_ITEM })).toHaveLength(0);
  });

  it('bans the key when its 429s in one minute reach the threshold', async () => {
    fullMinute();
    dynamo.on(UpdateCommand, { Key: { counterId: `key_test#rejections#${MINUTE_START}` } }).resolves({ Attributes: { rejected: 100 } });

    await listHandler()(proxyEvent(), lambdaContext);

    const bannedUntil = Math.floor(NOW / 1000) + 900;
    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      TableName: COUNTERS_TABLE,
      Item: { counterId: 'key_test#ban', bannedUntil, expiresAt: bannedUntil },
    });
  });

  it('still answers 429 when the rejection cannot be recorded', async () => {
    fullMinute();
    dynamo.on(UpdateCommand, { Key: { counterId: `key_test#rejections#${MINUTE_START}` } }).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));

    const response = await listHandler()(proxyEvent(), lambdaContext);

    expect(response.statusCode).toBe(429);
    expect(response.headers).toMatchObject({ 'X-RateLimit-Remaining': '0' });
    expect(dynamo).toHaveReceivedCommandTimes(ScanCommand, 0);
  });

  it('serves the request (fail-open) and emits a metric when the counters are unavailable', async () => {
    vi.stubEnv('METRICS_DISABLED', 'false');
    const log = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    dynamo.on(UpdateCommand, { TableName: COUNTERS_TABLE }).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));

    const response = await listHandler()(proxyEvent(), lambdaContext);

    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '60', 'X-RateLimit-Reset': String(MINUTE_START + 60) });
    expect(log).toHaveBeenCalledWith(expect.stringContaining('"UsageCountingUnavailable":1'));
  });
});
