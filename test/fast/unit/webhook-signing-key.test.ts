import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WEBHOOK_ENV } from '../../../functions/config.ts';
import { createSigningKeyReader, SIGNING_KEY_MAX_AGE_MS } from '../../../functions/adapters/aws/webhook-signing-key.ts';
import { awsEnvironment } from '../../support/aws-environment.ts';

/** The delivery function's signing key on AWS, with Secrets Manager mocked: read again after a failure, and after its maximum age. */

const secrets = mockClient(SecretsManagerClient);
const sqs = mockClient(SQSClient);
const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:webhook-AbCdEf';
const FIRST = Buffer.alloc(24, 1);
const ROTATED = Buffer.alloc(24, 2);
const stored = (key: Buffer, prefix = '') => ({ SecretString: `${prefix}${key.toString('base64')}` });

beforeEach(() => {
  secrets.reset();
  sqs.reset();
  vi.useFakeTimers({ now: Date.UTC(2026, 10, 24, 8, 0, 0) });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe('the signing key reader', () => {
  it('reads the secret again after a failed read, rather than keeping the failure', async () => {
    secrets.on(GetSecretValueCommand).rejectsOnce(new Error('Rate exceeded')).resolves(stored(FIRST));
    const signingKey = createSigningKeyReader(new SecretsManagerClient({}), SECRET_ARN);

    await expect(signingKey()).rejects.toThrow('Rate exceeded');
    expect(await signingKey()).toEqual(FIRST);
    expect(secrets).toHaveReceivedCommandTimes(GetSecretValueCommand, 2);
  });

  it('keeps a key for its maximum age, then reads the secret again: a rotated secret is used from then on', async () => {
    secrets.on(GetSecretValueCommand).resolvesOnce(stored(FIRST, 'whsec_')).resolves(stored(ROTATED));
    const signingKey = createSigningKeyReader(new SecretsManagerClient({}), SECRET_ARN);

    expect(await signingKey()).toEqual(FIRST);
    vi.advanceTimersByTime(SIGNING_KEY_MAX_AGE_MS - 1);
    expect(await signingKey()).toEqual(FIRST);
    expect(secrets).toHaveReceivedCommandTimes(GetSecretValueCommand, 1);

    vi.advanceTimersByTime(1);
    expect(await signingKey()).toEqual(ROTATED);
    expect(secrets).toHaveReceivedCommandWith(GetSecretValueCommand, { SecretId: SECRET_ARN });
    expect(secrets).toHaveReceivedCommandTimes(GetSecretValueCommand, 2);
  });
});

describe('the delivery function as deployed (functions/lambda/deliver-webhooks.ts)', () => {
  async function deployedHandler() {
    awsEnvironment({ AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'AKIATESTONLY', AWS_SECRET_ACCESS_KEY: 'test-only' });
    vi.stubEnv(WEBHOOK_ENV.secretArn, SECRET_ARN);
    vi.stubEnv(WEBHOOK_ENV.deliveryQueueUrl, 'https://sqs.eu-west-1.amazonaws.com/111122223333/deliveries.fifo');
    vi.stubEnv(WEBHOOK_ENV.deadLetterQueueUrl, 'https://sqs.eu-west-1.amazonaws.com/111122223333/dead.fifo');
    vi.resetModules();
    return (await import('../../../functions/lambda/deliver-webhooks.ts')).handler;
  }

  it('recovers from a failed read of the secret at cold start: the next invocation of that environment reads it again', async () => {
    secrets.on(GetSecretValueCommand).rejectsOnce(new Error('Secrets Manager unavailable')).resolves(stored(FIRST));
    const handler = await deployedHandler();

    await expect(handler({ Records: [] })).rejects.toThrow('Secrets Manager unavailable');
    expect(await handler({ Records: [] })).toEqual({ batchItemFailures: [] });
    expect(secrets).toHaveReceivedCommandTimes(GetSecretValueCommand, 2);
  });

  it('reads a rotated secret without a cold start, once the key has reached its maximum age', async () => {
    secrets.on(GetSecretValueCommand).resolves(stored(FIRST));
    const handler = await deployedHandler();

    await handler({ Records: [] });
    vi.advanceTimersByTime(SIGNING_KEY_MAX_AGE_MS);
    await handler({ Records: [] });

    expect(secrets).toHaveReceivedCommandTimes(GetSecretValueCommand, 2);
  });
});
