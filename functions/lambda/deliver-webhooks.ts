import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createWebhookDeliveryBatch } from '../adapters/aws/webhook-delivery-batch.ts';
import { createSigningKeyReader } from '../adapters/aws/webhook-signing-key.ts';
import { sendWebhook } from '../adapters/webhooks/webhook-sender.ts';
import { requiredSetting, WEBHOOK_ENV } from '../config.ts';
import { createDeliverWebhooksHandler } from '../handlers/deliver-webhooks-handler.ts';

const sqs = new SQSClient({});
const queues = {
  deliveryQueueUrl: requiredSetting(WEBHOOK_ENV.deliveryQueueUrl),
  deadLetterQueueUrl: requiredSetting(WEBHOOK_ENV.deadLetterQueueUrl),
};

export const handler = createDeliverWebhooksHandler({
  batchOf: (event, now) => createWebhookDeliveryBatch(sqs, queues, event, now),
  signingKey: createSigningKeyReader(new SecretsManagerClient({}), requiredSetting(WEBHOOK_ENV.secretArn)),
  send: sendWebhook,
});
