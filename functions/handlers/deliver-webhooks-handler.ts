import { ChangeMessageVisibilityCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { QueuedWebhook } from '../adapters/aws/webhook-queue-publisher.ts';
import { sendWebhook, type AttemptOutcome } from '../adapters/webhooks/webhook-sender.ts';
import { afterFailedAttempt, WEBHOOK_RETRY_POLICY, type WebhookRetryPolicy } from '../domain/webhook-delivery.ts';
import { webhookUrlForLogs, type WebhookMessage } from '../domain/webhooks.ts';
import { logger } from '../logger.ts';

export interface DeliverWebhooksDependencies {
  sqs: SQSClient;
  deliveryQueueUrl: string;
  deadLetterQueueUrl: string;
  /** The secret's key, read from Secrets Manager once per cold start. */
  signingKey: () => Promise<Buffer>;
  policy?: WebhookRetryPolicy;
  send?: (url: string, message: WebhookMessage, key: Buffer, timeoutMs: number) => Promise<AttemptOutcome>;
  now?: () => number;
}

/**
 * The delivery queue (SQS FIFO, a group per pet and endpoint) → signed POSTs, exactly as npm
 * start signs them. A failed attempt hides its message for the policy's next wait
 * (ChangeMessageVisibility) and is reported failed with every later message of the batch, as
 * FIFO order requires: the group waits, other groups go on. A message queued longer than the
 * policy's period is moved to the dead-letter queue, whose alarm fires.
 */
export function createDeliverWebhooksHandler(dependencies: DeliverWebhooksDependencies) {
  const policy = dependencies.policy ?? WEBHOOK_RETRY_POLICY;
  const send = dependencies.send ?? sendWebhook;
  const now = dependencies.now ?? Date.now;

  async function deadLetter(record: SQSRecord, failure: string): Promise<void> {
    await dependencies.sqs.send(
      new SendMessageCommand({
        QueueUrl: dependencies.deadLetterQueueUrl,
        MessageBody: record.body,
        MessageGroupId: record.attributes.MessageGroupId,
        MessageDeduplicationId: record.attributes.MessageDeduplicationId,
        MessageAttributes: { lastFailure: { DataType: 'String', StringValue: failure } },
      }),
    );
  }

  /** true once the message is done with: delivered, or dead-lettered. */
  async function deliver(record: SQSRecord, key: Buffer): Promise<boolean> {
    const webhook = JSON.parse(record.body) as QueuedWebhook;
    const outcome = await send(webhook.url, { id: webhook.eventId, body: webhook.body }, key, policy.attemptTimeoutMs);
    if (outcome.delivered) return true;
    const attempts = Number(record.attributes.ApproximateReceiveCount);
    const next = afterFailedAttempt(policy, attempts, Number(record.attributes.SentTimestamp), now());
    const url = webhookUrlForLogs(webhook.url);
    logger.warn('webhook attempt failed', { eventId: webhook.eventId, url, attempts, failure: outcome.failure });
    if ('deadLetter' in next) {
      await deadLetter(record, outcome.failure);
      logger.error('webhook dead-lettered', { eventId: webhook.eventId, url, attempts });
      return true;
    }
    await dependencies.sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: dependencies.deliveryQueueUrl,
        ReceiptHandle: record.receiptHandle,
        VisibilityTimeout: Math.ceil((next.retryAtMs - now()) / 1000),
      }),
    );
    return false;
  }

  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const key = await dependencies.signingKey();
    for (const [index, record] of event.Records.entries()) {
      if (await deliver(record, key)) continue;
      // FIFO: this message and every later one of the batch come back, in order.
      return { batchItemFailures: event.Records.slice(index).map((later) => ({ itemIdentifier: later.messageId })) };
    }
    return { batchItemFailures: [] };
  };
}
