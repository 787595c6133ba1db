import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lambdaContext, proxyEvent } from '../support/events.ts';
import { COUNTERS_TABLE, inventoryHandlers } from '../support/mocked-handlers.ts';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 45);
const MINUTE_START = Date.UTC(2026, 10, 21, 12, 0) / 1000;
const DAY_START = Date.UTC(2026, 10, 21) / 1000;

const dynamo = mockClient(DynamoDBDocumentClient);

const listHandler = () => inventoryHandlers(NOW, { rejectionsPerMinute: 100, durationSeconds: 900 }).list;

const full = new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

beforeEach(() => {
  dynamo.reset();
  dynamo.on(ScanCommand).resolves({ Items: [] });
  dynamo.on(GetCommand, { TableName: COUNTERS_TABLE }).resolves({});
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('plan limits', () => {
  it('counts both windows with one conditional ADD each, never above the limit', async () => {
    dynamo.on(UpdateCommand, { TableName: COUNTERS_TABLE }).resolves({ Attributes: { requests: 1 } });

    await listHandler()(proxyEvent(), lambdaContext);

    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      TableName: COUNTERS_TABLE,
      Key: { counterId: `key_test#minute#${MINUTE_START}` },
      UpdateExpression: 'ADD requests :one SET expiresAt = :expiresAt',
      ConditionExpression: 'attribute_not_exists(requests) OR requests < :limit',
      ExpressionAttributeValues: { ':one': 1, ':limit': 60, ':expiresAt': MINUTE_START + 60 + 3600 },
    });
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      Key: { counterId: `key_test#day#${DAY_START}` },
      ExpressionAttributeValues: { ':one': 1, ':limit': 1_000, ':expiresAt': DAY_START + 86_400 + 3600 },
    });
    expect(dynamo).toHaveReceivedCommandWith(GetCommand, { TableName: COUNTERS_TABLE, Key: { counterId: 'key_test#ban' }, ConsistentRead: true });
  });

  it('answers 429 without touching the inventory, gives back the day unit and records the rejection', async () => {
    dynamo.on(UpdateCommand, { Key: { counterId: `key_test#minute#${MINUTE_START}` }, UpdateExpression: 'ADD requests :one SET expiresAt = :expiresAt' }).rejects(full);
    dynamo.on(UpdateCommand, { Key: { counterId: `key_test#day#${DAY_START}` } }).resolves({ Attributes: { requests: 500 } });
    dynamo.on(UpdateCommand, { ExpressionAttributeNames: { '#attribute': 'rejected' } }).resolves({ Attributes: { rejected: 1 } });

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
      Key: { counterId: `key_test#day#${DAY_START}` },
      ExpressionAttributeNames: { '#attribute': 'requests' },
      ExpressionAttributeValues: { ':amount': -1, ':expiresAt': DAY_START + 86_400 + 3600 },
    });
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      Key: { counterId: `key_test#minute#${MINUTE_START}` },
      ExpressionAttributeNames: { '#attribute': 'rejected' },
    });
  });

  it('bans the key when its 429s in one minute reach the threshold', async () => {
    dynamo.on(UpdateCommand, { UpdateExpression: 'ADD requests :one SET expiresAt = :expiresAt' }).rejects(full);
    dynamo.on(UpdateCommand, { ExpressionAttributeNames: { '#attribute': 'rejected' } }).resolves({ Attributes: { rejected: 100 } });

    await listHandler()(proxyEvent(), lambdaContext);

    const bannedUntil = Math.floor(NOW / 1000) + 900;
    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      TableName: COUNTERS_TABLE,
      Item: { counterId: 'key_test#ban', bannedUntil, expiresAt: bannedUntil },
    });
  });

  it('serves the request (fail-open) and emits a metric when the counters are unavailable', async () => {
    vi.stubEnv('LOG_LEVEL', 'info');
    const log = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    dynamo.on(UpdateCommand, { TableName: COUNTERS_TABLE }).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));

    const response = await listHandler()(proxyEvent(), lambdaContext);

    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '60', 'X-RateLimit-Reset': String(MINUTE_START + 60) });
    expect(log).toHaveBeenCalledWith(expect.stringContaining('"UsageCountingUnavailable":1'));
  });
});
