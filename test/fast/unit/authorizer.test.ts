import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApiKeyRepository } from '../../../functions/adapters/dynamodb/api-key-repository.ts';
import { createDocumentClient } from '../../../functions/adapters/dynamodb/document-client.ts';
import { hashApiKey } from '../../../functions/domain/api-keys.ts';
import { FailedAuthenticationLimiter } from '../../../functions/domain/failed-authentications.ts';
import { createAuthorizerHandler } from '../../../functions/handlers/authorizer-handler.ts';
import { lambdaContext } from '../../support/events.ts';
import { inMemoryFailedAuthenticationStore } from '../../support/failed-authentication-store.ts';

const KEYS = 'keys-table';
const API_KEY = 'Abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
const METHOD_ARN = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/v1/PATCH/inventory/7';

const dynamo = mockClient(DynamoDBDocumentClient);
/** 12:00:20 UTC: the minute window resets at 12:01:00. */
const NOW = Date.UTC(2026, 10, 22, 12, 0, 20);
const MINUTE_ENDS_AT = String(Date.UTC(2026, 10, 22, 12, 1, 0) / 1000);

function createHandler(perMinute = 60) {
  return createAuthorizerHandler({
    apiKeys: createApiKeyRepository(createDocumentClient({ endpoint: 'http://127.0.0.1:1' }), KEYS),
    failedAuthentications: new FailedAuthenticationLimiter(inMemoryFailedAuthenticationStore(), perMinute, () => NOW),
  });
}

function authorize(authorization?: string, handler = createHandler(), sourceIp = '203.0.113.7') {
  const event = {
    type: 'REQUEST',
    methodArn: METHOD_ARN,
    headers: authorization === undefined ? {} : { Authorization: authorization },
    requestContext: { requestId: 'r-1', identity: { sourceIp } },
  } as unknown as APIGatewayRequestAuthorizerEvent;
  return handler(event, lambdaContext);
}

/** The Deny of a refused key: the whole stage, and the address window's headers in its context. */
const denial = (remaining: number) => ({
  principalId: 'unauthenticated',
  policyDocument: {
    Version: '2012-10-17',
    Statement: [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/v1/*' }],
  },
  context: {
    rateLimitLimit: '60',
    rateLimitRemaining: String(remaining),
    rateLimitReset: MINUTE_ENDS_AT,
    rateLimitPolicy: '"failed-authentications";q=60;w=60',
    rateLimit: `"failed-authentications";r=${remaining};t=40`,
  },
});

/** The Deny of an address whose window is full: a 401 like any refused key's, with nothing left until the minute ends. */
const fullAddressDenial = {
  principalId: 'unauthenticated',
  policyDocument: { Statement: [{ Effect: 'Deny' }] },
  context: { rateLimitRemaining: '0', rateLimitReset: MINUTE_ENDS_AT },
};

const storedKey = (overrides: Record<string, unknown> = {}) => ({
  keyHash: hashApiKey(API_KEY),
  keyId: 'key_acme',
  owner: 'Acme',
  plan: 'pro',
  status: 'active',
  createdAt: '2026-11-01T00:00:00.000Z',
  ...overrides,
});

beforeEach(() => dynamo.reset());

describe('the REQUEST authorizer', () => {
  it('allows an active key for the whole stage, as the usage identifier, with its plan in the context', async () => {
    dynamo.on(GetCommand).resolves({ Item: storedKey() });

    const result = await authorize(`Bearer ${API_KEY}`);

    expect(result).toEqual({
      principalId: 'key_acme',
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/v1/*' }],
      },
      usageIdentifierKey: API_KEY,
      context: { keyId: 'key_acme', plan: 'pro', perMinute: 300, perDay: 10_000 },
    });
    expect(dynamo).toHaveReceivedCommandWith(GetCommand, { TableName: KEYS, Key: { keyHash: hashApiKey(API_KEY) }, ConsistentRead: true });
  });

  it('answers a key it read within the minute from memory, with no store call: a request of a known key costs the authorizer nothing more', async () => {
    dynamo.on(GetCommand).resolves({ Item: storedKey() });
    const handler = createHandler();

    const first = await authorize(`Bearer ${API_KEY}`, handler);
    const second = await authorize(`Bearer ${API_KEY}`, handler);

    expect(second).toEqual(first);
    expect(second.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
    expect(dynamo).toHaveReceivedCommandTimes(GetCommand, 1);
  });

  it('passes an enterprise key its own limits', async () => {
    dynamo.on(GetCommand).resolves({ Item: storedKey({ plan: 'enterprise', customLimits: { perMinute: 5_000, perDay: 2_000_000 } }) });

    const result = await authorize(`bearer ${API_KEY}`);

    expect(result.context).toEqual({ keyId: 'key_acme', plan: 'enterprise', perMinute: 5_000, perDay: 2_000_000 });
  });

  it.each([
    ['no header', undefined],
    ['another scheme', `Basic ${API_KEY}`],
    ['an empty token', 'Bearer '],
    ['a token too short to be a key', 'Bearer abc'],
    ['a token with symbols', `Bearer ${API_KEY.slice(0, 30)}-_+/`],
  ])('denies %s without looking anything up, counted in the address window', async (_case, authorization) => {
    await expect(authorize(authorization)).resolves.toEqual(denial(59));
    expect(dynamo).toHaveReceivedCommandTimes(GetCommand, 0);
  });

  it('denies an unknown key', async () => {
    dynamo.on(GetCommand).resolves({});

    await expect(authorize(`Bearer ${API_KEY}`)).resolves.toEqual(denial(59));
  });

  it('denies a revoked key', async () => {
    dynamo.on(GetCommand).resolves({ Item: storedKey({ status: 'revoked' }) });

    await expect(authorize(`Bearer ${API_KEY}`)).resolves.toEqual(denial(59));
  });

  it('counts each address apart, and past its limit denies it (the 401, nothing remaining until the minute ends) without a key lookup', async () => {
    dynamo.on(GetCommand).resolves({});
    const handler = createHandler(2);

    await authorize('Bearer ', handler);
    await expect(authorize(`Bearer ${API_KEY}`, handler)).resolves.toMatchObject({
      context: { rateLimitLimit: '2', rateLimitRemaining: '0' },
    });
    await expect(authorize('Bearer Zyxwvutsrqponmlkjihgfedcba9876543210', handler)).resolves.toMatchObject(fullAddressDenial);
    await expect(authorize('Bearer ', handler, '198.51.100.1')).resolves.toMatchObject({ context: { rateLimitRemaining: '1' } });

    expect(dynamo).toHaveReceivedCommandTimes(GetCommand, 1);
  });

  it('still looks up and allows a key that authenticated from the address before its window filled', async () => {
    dynamo.on(GetCommand, { TableName: KEYS, Key: { keyHash: hashApiKey(API_KEY) } }).resolves({ Item: storedKey() });
    dynamo.on(GetCommand, { TableName: KEYS, Key: { keyHash: hashApiKey('Zyxwvutsrqponmlkjihgfedcba9876543210') } }).resolves({});
    const handler = createHandler(1);

    await expect(authorize(`Bearer ${API_KEY}`, handler)).resolves.toMatchObject({ principalId: 'key_acme' });
    await authorize('Bearer Zyxwvutsrqponmlkjihgfedcba9876543210', handler);
    await expect(authorize('Bearer Zyxwvutsrqponmlkjihgfedcba9876543210', handler)).resolves.toMatchObject(fullAddressDenial);

    await expect(authorize(`Bearer ${API_KEY}`, handler)).resolves.toMatchObject({
      principalId: 'key_acme',
      context: { keyId: 'key_acme' },
    });
  });

  it('fails (API Gateway answers 503) rather than refusing when the key store is throttled', async () => {
    dynamo.on(GetCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));

    await expect(authorize(`Bearer ${API_KEY}`)).rejects.toThrow('The data store is temporarily unavailable.');
  });

  it.each([
    ['the same key twice', { Authorization: [`Bearer ${API_KEY}`, `Bearer ${API_KEY}`] }],
    ['another key after it', { Authorization: [`Bearer ${API_KEY}`, 'Bearer Zyxwvutsrqponmlkjihgfedcba9876543210'] }],
    ['it under two spellings of the name', { authorization: [`Bearer ${API_KEY}`], AUTHORIZATION: [`Bearer ${API_KEY}`] }],
  ])('denies two Authorization headers (%s) without looking anything up: ambiguous credentials', async (_case, multiValueHeaders) => {
    dynamo.on(GetCommand).resolves({ Item: storedKey() });
    const handler = createHandler();
    // As API Gateway builds it: the last value of each name in headers, every value in multiValueHeaders.
    const headers = Object.fromEntries(Object.entries(multiValueHeaders).map(([name, values]) => [name, values.at(-1)!]));
    const event = {
      type: 'REQUEST',
      methodArn: METHOD_ARN,
      headers,
      multiValueHeaders,
      requestContext: { requestId: 'r-1' },
    } as unknown as APIGatewayRequestAuthorizerEvent;

    await expect(handler(event, lambdaContext)).resolves.toEqual(denial(59));
    expect(dynamo).toHaveReceivedCommandTimes(GetCommand, 0);
  });
});
