import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import {
  type DueHead,
  startWebhookDeliveryLoop,
  type WebhookDeliveryLoopOptions,
  type WebhookDeliveryQueue,
} from '../domain/webhook-delivery-loop.ts';
import { webhookUrlForLogs } from '../domain/webhooks.ts';
import { logger } from '../logger.ts';

/** One invocation's batch as the delivery loop's queue (functions/adapters/aws/webhook-delivery-batch.ts). */
export interface DeliveryBatch {
  queue: WebhookDeliveryQueue<DueHead>;
  endpoints: readonly string[];
  fail(error: unknown): void;
  answer(): SQSBatchResponse;
}

export interface DeliverWebhooksDependencies extends Pick<WebhookDeliveryLoopOptions<DueHead>, 'send' | 'policy' | 'now'> {
  batchOf: (event: SQSEvent, now: () => number) => DeliveryBatch;
  /** The secret's key (from Secrets Manager on AWS, read again every few minutes: functions/adapters/aws/webhook-signing-key.ts). */
  signingKey: () => Promise<Buffer>;
}

/**
 * The delivery queue → signed POSTs, exactly as npm start signs them: the delivery loop over the invocation's batch,
 * until nothing of it is left to attempt. Failing receivers are not probed here (see probeFailingReceivers).
 */
export function createDeliverWebhooksHandler(dependencies: DeliverWebhooksDependencies) {
  const now = dependencies.now ?? Date.now;
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const signingKey = await dependencies.signingKey();
    const batch = dependencies.batchOf(event, now);
    const loop = startWebhookDeliveryLoop({
      queue: batch.queue,
      endpoints: async () => batch.endpoints,
      signingKey,
      send: dependencies.send,
      ...(dependencies.policy ? { policy: dependencies.policy } : {}),
      now,
      probeFailingReceivers: false,
      events: {
        attemptFailed: ({ eventId, url }, attempts, failure) =>
          logger.warn('webhook attempt failed', { eventId, url: webhookUrlForLogs(url), attempts, failure }),
        deadLettered: ({ eventId, url }, attempts) =>
          logger.error('webhook dead-lettered', { eventId, url: webhookUrlForLogs(url), attempts }),
        // Nothing more is attempted then, and the invocation throws: Lambda hands the whole batch back.
        queueFailed: (error) => batch.fail(error),
        roundFailed: (error) => batch.fail(error),
      },
    });
    await loop.idle();
    await loop.close();
    return batch.answer();
  };
}
