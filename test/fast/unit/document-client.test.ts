import { InternalServerError, ProvisionedThroughputExceededException, RequestLimitExceeded } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { isTransientStoreError } from '../../../functions/adapters/dynamodb/document-client.ts';

const metadata = (httpStatusCode: number) => ({ $metadata: { httpStatusCode } });

describe('which store failures are worth a retry later (a 503), by the SDK’s own classification', () => {
  it.each([
    ['throttled reads or writes', new ProvisionedThroughputExceededException({ message: 'throttled', ...metadata(400) })],
    ['the account’s request limit', new RequestLimitExceeded({ message: 'limit', ...metadata(400) })],
    ['an internal error of DynamoDB', new InternalServerError({ message: 'internal', ...metadata(500) })],
    ['a 503 from the endpoint', Object.assign(new Error('Service Unavailable'), { name: 'ServiceUnavailable', ...metadata(503) })],
    ['a request timeout', Object.assign(new Error('socket timed out'), { name: 'TimeoutError' })],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['an unknown host', Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })],
  ])('%s is transient', (_case, error) => {
    expect(isTransientStoreError(error)).toBe(true);
  });

  it.each([
    [
      'a request DynamoDB refuses as invalid',
      Object.assign(new Error('One or more parameter values were invalid'), { name: 'ValidationException', ...metadata(400) }),
    ],
    ['a bug in our code', new TypeError('Cannot read properties of undefined')],
    ['something thrown that is not an Error', 'boom'],
  ])('%s is not', (_case, error) => {
    expect(isTransientStoreError(error)).toBe(false);
  });
});
