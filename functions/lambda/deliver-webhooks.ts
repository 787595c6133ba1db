import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createSigningKeyReader } from '../adapters/aws/webhook-signing-key.ts';
import { requiredSetting, WEBHOOK_ENV } from '../config.ts';
import { createDeliverWebhooksHandler } from '../handlers/deliver-webhooks-handler.ts';

export const handler = createDeliverWebhooksHandler({
  sqs: new SQSClient({}),
  deliveryQueueUrl: requiredSetting(WEBHOOK_ENV.deliveryQueueUrl),
  deadLetterQueueUrl: requiredSetting(WEBHOOK_ENV.deadLetterQueueUrl),
  signingKey: createSigningKeyReader(new SecretsManagerClient({}), requiredSetting(WEBHOOK_ENV.secretArn)),
});
