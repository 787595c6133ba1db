import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { createHash } from 'node:crypto';
import { webhooksOf, type EventPublisher } from '../../domain/inventory-events.ts';
import type { WebhookSubscription } from '../../domain/webhooks.ts';
import { toJson } from '../../int64-json.ts';

/** One webhook to send, as a message of the delivery queue. */
export interface QueuedWebhook {
  url: string;
  eventId: string;
  /** The exact body every attempt sends. */
  body: string;
}

/** SendMessageBatch's largest batch. */
const MESSAGES_PER_CALL = 10;

/**
 * A pet at one endpoint: FIFO order holds within a group, so a pet's events reach each receiver
 * in version order, while other pets and other endpoints go on. Hashed, as a group id has at most
 * 128 characters and a URL may be longer.
 */
export function deliveryGroupOf(url: string, petId: bigint): string {
  return `${createHash('sha256').update(url).digest('base64url').slice(0, 16)}:${petId}`;
}

/**
 * Each event for each endpoint that takes its type, as a message of the FIFO delivery queue,
 * consumed by the delivery function (functions/handlers/deliver-webhooks-handler.ts). The
 * deduplication id is the endpoint's and the event's place among its pet's (the change's version,
 * an alert's half a version after): a batch handled again within SQS's five minutes queues
 * nothing twice.
 */
export function createWebhookQueuePublisher(
  client: SQSClient,
  queueUrl: string,
  subscriptions: readonly WebhookSubscription[],
): EventPublisher {
  return {
    async publish(events) {
      const messages = webhooksOf(subscriptions, events).map(({ url, event }) => {
        const webhook: QueuedWebhook = { url, eventId: event.id, body: toJson(event.body) };
        const group = deliveryGroupOf(url, event.petId);
        return { MessageBody: JSON.stringify(webhook), MessageGroupId: group, MessageDeduplicationId: `${group}:${event.position}` };
      });
      for (let start = 0; start < messages.length; start += MESSAGES_PER_CALL) {
        const batch = messages.slice(start, start + MESSAGES_PER_CALL).map((message, index) => ({ Id: String(index), ...message }));
        const { Failed = [] } = await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: batch }));
        if (Failed.length > 0)
          throw new Error(`SQS refused ${Failed.length} of ${batch.length} webhooks (${Failed[0]?.Code}: ${Failed[0]?.Message})`);
      }
    },
  };
}
