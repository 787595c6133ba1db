import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createEventBusPublisher } from '../adapters/aws/event-bus-publisher.ts';
import { createWebhookQueuePublisher } from '../adapters/aws/webhook-queue-publisher.ts';
import { createChangeFeedRepository } from '../adapters/dynamodb/change-feed-repository.ts';
import { createDocumentClient } from '../adapters/dynamodb/document-client.ts';
import { createHistoryRepository } from '../adapters/dynamodb/history-repository.ts';
import { writesOfRecords } from '../adapters/dynamodb/inventory-stream.ts';
import { ENV, readHistoryRetentionDays, requiredSetting, WEBHOOK_ENV } from '../config.ts';
import { parseWebhookSubscriptions } from '../domain/webhooks.ts';
import { createRecordInventoryChangesHandler } from '../handlers/record-inventory-changes-handler.ts';

// The history, the feed and the events: the consumer wires nothing else, so its bundle and its role hold nothing else.
const client = createDocumentClient();
const retentionDays = readHistoryRetentionDays();
const webhookSubscriptions = process.env[WEBHOOK_ENV.urls]
  ? parseWebhookSubscriptions(process.env[WEBHOOK_ENV.urls]!, WEBHOOK_ENV.urls, { requireHttps: true })
  : [];

export const handler = createRecordInventoryChangesHandler({
  writesOf: writesOfRecords,
  history: createHistoryRepository(client, requiredSetting(ENV.historyTable), retentionDays),
  changeFeed: createChangeFeedRepository(client, requiredSetting(ENV.changeFeedTable), retentionDays),
  publishers: [
    createEventBusPublisher(new EventBridgeClient({}), requiredSetting(WEBHOOK_ENV.eventBusName)),
    ...(webhookSubscriptions.length > 0
      ? [createWebhookQueuePublisher(new SQSClient({}), requiredSetting(WEBHOOK_ENV.deliveryQueueUrl), webhookSubscriptions)]
      : []),
  ],
});
