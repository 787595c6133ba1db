import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { createHash } from 'node:crypto';
import { eventIdOf, inventoryChangedEvent, type ChangePublisher } from '../../domain/inventory-events.ts';
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
 * Each change for each endpoint as a message of the FIFO delivery queue, consumed by the delivery
 * function (functions/handlers/deliver-webhooks-handler.ts). The deduplication id is the event's
 * and the endpoint's: a batch handled again within SQS's five minutes queues nothing twice.
 */
export function createWebhookQueuePublisher(client: SQSClient, queueUrl: string, urls: readonly string[]): ChangePublisher {
  return {
    async publish(changes) {
      const messages = urls.flatMap((url) =>
        changes.map((change) => {
          const webhook: QueuedWebhook = { url, eventId: eventIdOf(change), body: toJson(inventoryChangedEvent(change)) };
          const group = deliveryGroupOf(url, change.petId);
          return {
            MessageBody: JSON.stringify(webhook),
            MessageGroupId: group,
            MessageDeduplicationId: `${group}:${change.version}`,
          };
        }),
      );
      for (let start = 0; start < messages.length; start += MESSAGES_PER_CALL) {
        const batch = messages.slice(start, start + MESSAGES_PER_CALL).map((message, index) => ({ Id: String(index), ...message }));
        const { Failed = [] } = await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: batch }));
        if (Failed.length > 0)
          throw new Error(`SQS refused ${Failed.length} of ${batch.length} webhooks (${Failed[0]?.Code}: ${Failed[0]?.Message})`);
      }
    },
  };
}
