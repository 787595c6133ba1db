import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SQSClient } from '@aws-sdk/client-sqs';
import { requiredSetting, WEBHOOK_ENV } from '../config.ts';
import { signingKeyOf, WEBHOOK_SECRET_PREFIX } from '../domain/webhooks.ts';
import { createDeliverWebhooksHandler } from '../handlers/deliver-webhooks-handler.ts';

const secretArn = requiredSetting(WEBHOOK_ENV.secretArn);

/** Read once, at cold start; never logged. The stored value may carry the Standard Webhooks prefix or not. */
const signingKey = (async () => {
  const secrets = new SecretsManagerClient({});
  const { SecretString = '' } = await secrets.send(new GetSecretValueCommand({ SecretId: secretArn }));
  secrets.destroy();
  const base64 = SecretString.startsWith(WEBHOOK_SECRET_PREFIX) ? SecretString.slice(WEBHOOK_SECRET_PREFIX.length) : SecretString;
  return signingKeyOf(base64, 'the webhook secret');
})();
// A failed read surfaces in the first invocation, which fails and is retried; nothing unhandled at load.
signingKey.catch(() => undefined);

export const handler = createDeliverWebhooksHandler({
  sqs: new SQSClient({}),
  deliveryQueueUrl: requiredSetting(WEBHOOK_ENV.deliveryQueueUrl),
  deadLetterQueueUrl: requiredSetting(WEBHOOK_ENV.deadLetterQueueUrl),
  signingKey: () => signingKey,
});
