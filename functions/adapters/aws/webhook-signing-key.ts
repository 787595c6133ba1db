import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { signingKeyOf, WEBHOOK_SECRET_PREFIX } from '../../domain/webhooks.ts';

/**
 * How long the delivery function signs with a key it read before reading the secret again: a
 * rotated secret is used within this, without a cold start. One read per environment every five
 * minutes costs nothing worth counting.
 */
export const SIGNING_KEY_MAX_AGE_MS = 5 * 60_000;

/**
 * The webhook signing key from Secrets Manager, kept for maxAgeMs. A failed read is not kept: the
 * next call reads again, so an environment whose first read failed recovers at its next
 * invocation. The stored value may carry the Standard Webhooks prefix or not; it is never logged.
 */
export function createSigningKeyReader(
  client: SecretsManagerClient,
  secretArn: string,
  { maxAgeMs = SIGNING_KEY_MAX_AGE_MS, now = Date.now }: { maxAgeMs?: number; now?: () => number } = {},
): () => Promise<Buffer> {
  let kept: { key: Promise<Buffer>; readAtMs: number } | undefined;

  async function read(): Promise<Buffer> {
    const { SecretString = '' } = await client.send(new GetSecretValueCommand({ SecretId: secretArn }));
    const base64 = SecretString.startsWith(WEBHOOK_SECRET_PREFIX) ? SecretString.slice(WEBHOOK_SECRET_PREFIX.length) : SecretString;
    return signingKeyOf(base64, 'the webhook secret');
  }

  return () => {
    if (kept === undefined || now() - kept.readAtMs >= maxAgeMs) {
      const reading = { key: read(), readAtMs: now() };
      kept = reading;
      reading.key.catch(() => {
        if (kept === reading) kept = undefined;
      });
    }
    return kept.key;
  };
}
