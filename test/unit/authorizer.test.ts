import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApiKeyRepository } from '../../functions/adapters/dynamodb/api-key-repository.ts';
import { createDocumentClient } from '../../functions/adapters/dynamodb/document-client.ts';
import { hashApiKey } from '../../functions/domain/api-keys.ts';
import { createAuthorizerHandler } from '../../functions/handlers/authorizer-handler.ts';
import { lambdaContext } from '../support/events.ts';

const KEYS = 'keys-table';
const API_KEY = 'Abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
const METHOD_ARN = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/v1/PATCH/inventory/7';

const dynamo = mockClient(DynamoDBDocumentClient);

function authorize(authorization?: string) {
  const handler = createAuthorizerHandler({ apiKeys: createApiKeyRepository(createDocumentClient({ endpoint: 'http://127.0.0.1:1' }), KEYS) });
  const event = {
    type: 'REQUEST',
    methodArn: METHOD_ARN,
    headers: authorization === undefined ? {} : { Authorization: authorization },
    requestContext: { requestId: 'r-1' },
  } as unknown as APIGatewayRequestAuthorizerEvent;
  return handler(event, lambdaContext);
}

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
  ])('refuses %s without looking anything up', async (_case, authorization) => {
    await expect(authorize(authorization)).rejects.toThrow(/^Unauthorized$/);
    expect(dynamo).toHaveReceivedCommandTimes(GetCommand, 0);
  });

  it('refuses an unknown key', async () => {
    dynamo.on(GetCommand).resolves({});

    await expect(authorize(`Bearer ${API_KEY}`)).rejects.toThrow(/^Unauthorized$/);
  });

  it('refuses a revoked key', async () => {
    dynamo.on(GetCommand).resolves({ Item: storedKey({ status: 'revoked' }) });

    await expect(authorize(`Bearer ${API_KEY}`)).rejects.toThrow(/^Unauthorized$/);
  });

  it('fails (API Gateway answers 503) rather than refusing when the key store is throttled', async () => {
    dynamo.on(GetCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));

    await expect(authorize(`Bearer ${API_KEY}`)).rejects.toThrow('The data store is temporarily unavailable.');
  });

  it.each([
    ['the same key twice', { Authorization: [`Bearer ${API_KEY}`, `Bearer ${API_KEY}`] }],
    ['another key after it', { Authorization: [`Bearer ${API_KEY}`, 'Bearer Zyxwvutsrqponmlkjihgfedcba9876543210'] }],
    ['it under two spellings of the name', { authorization: [`Bearer ${API_KEY}`], AUTHORIZATION: [`Bearer ${API_KEY}`] }],
  ])('refuses two Authorization headers (%s) without looking anything up: ambiguous credentials', async (_case, multiValueHeaders) => {
    dynamo.on(GetCommand).resolves({ Item: storedKey() });
    const handler = createAuthorizerHandler({ apiKeys: createApiKeyRepository(createDocumentClient({ endpoint: 'http://127.0.0.1:1' }), KEYS) });
    // As API Gateway builds it: the last value of each name in headers, every value in multiValueHeaders.
    const headers = Object.fromEntries(Object.entries(multiValueHeaders).map(([name, values]) => [name, values.at(-1)!]));
    const event = { type: 'REQUEST', methodArn: METHOD_ARN, headers, multiValueHeaders, requestContext: { requestId: 'r-1' } } as unknown as APIGatewayRequestAuthorizerEvent;

    await expect(handler(event, lambdaContext)).rejects.toThrow(/^Unauthorized$/);
    expect(dynamo).toHaveReceivedCommandTimes(GetCommand, 0);
  });
});
