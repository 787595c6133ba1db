import { ChangeMessageVisibilityCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { QueuedWebhook } from '../adapters/aws/webhook-queue-publisher.ts';
import { sendWebhook } from '../adapters/webhooks/webhook-sender.ts';
import type { AttemptOutcome } from '../domain/webhook-delivery-loop.ts';
import { afterFailedAttempt, WEBHOOK_RETRY_POLICY, type WebhookRetryPolicy } from '../domain/webhook-delivery.ts';
import { webhookUrlForLogs, type WebhookMessage } from '../domain/webhooks.ts';
import { logger } from '../logger.ts';

export interface DeliverWebhooksDependencies {
  sqs: SQSClient;
  deliveryQueueUrl: string;
  deadLetterQueueUrl: string;
  /** The secret's key (from Secrets Manager on AWS, read again every few minutes: functions/adapters/aws/webhook-signing-key.ts). */
  signingKey: () => Promise<Buffer>;
  policy?: WebhookRetryPolicy;
  send?: (url: string, message: WebhookMessage, key: Buffer, timeoutMs: number) => Promise<AttemptOutcome>;
  now?: () => number;
}

/**
 * The delivery queue (SQS FIFO, a group per pet and endpoint) → signed POSTs, exactly as npm
 * start signs them. A failed attempt stops its group for the rest of the batch: that message and
 * the group's later ones are reported failed, untried, and all hidden for the policy's next wait
 * (ChangeMessageVisibility), so the group comes back whole after its backoff rather than after the
 * queue's visibility timeout; other groups go on. A message queued longer than the policy's period
 * is moved to the dead-letter queue, whose alarm fires.
 *
 * A message's failed attempts are its receives (ApproximateReceiveCount), except where it was
 * received behind an earlier message of its group: those receives were no attempts of its own, so a
 * message tried after an earlier one of its group was done with in the same batch is at its first
 * attempt, and backs off from the policy's first wait, as npm start's outbox does.
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

  /** Done with: delivered, or dead-lettered; otherwise the seconds its group waits before the next attempt. */
  async function deliver(record: SQSRecord, key: Buffer, attempts: number): Promise<'done' | { retryAfterSeconds: number }> {
    const webhook = JSON.parse(record.body) as QueuedWebhook;
    const outcome = await send(webhook.url, { id: webhook.eventId, body: webhook.body }, key, policy.attemptTimeoutMs);
    if (outcome.delivered) return 'done';
    const next = afterFailedAttempt(policy, attempts, Number(record.attributes.SentTimestamp), now());
    const url = webhookUrlForLogs(webhook.url);
    logger.warn('webhook attempt failed', { eventId: webhook.eventId, url, attempts, failure: outcome.failure });
    if ('deadLetter' in next) {
      await deadLetter(record, outcome.failure);
      logger.error('webhook dead-lettered', { eventId: webhook.eventId, url, attempts });
      return 'done';
    }
    return { retryAfterSeconds: Math.ceil((next.retryAtMs - now()) / 1000) };
  }

  function hide(record: SQSRecord, seconds: number): Promise<unknown> {
    return dependencies.sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: dependencies.deliveryQueueUrl,
        ReceiptHandle: record.receiptHandle,
        VisibilityTimeout: seconds,
      }),
    );
  }

  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const key = await dependencies.signingKey();
    /** Per group stopped in this batch, the wait its failed message was given. */
    const stoppedGroups = new Map<string, number>();
    /** The groups of which a message was delivered or dead-lettered in this batch: their next message is at its first attempt. */
    const groupsMovedOn = new Set<string>();
    const failed: SQSRecord[] = [];
    const hidden: Promise<unknown>[] = [];
    for (const record of event.Records) {
      const group = record.attributes.MessageGroupId ?? record.messageId;
      let wait = stoppedGroups.get(group);
      if (wait === undefined) {
        const attempts = groupsMovedOn.has(group) ? 1 : Number(record.attributes.ApproximateReceiveCount);
        const outcome = await deliver(record, key, attempts);
        if (outcome === 'done') {
          groupsMovedOn.add(group);
          continue;
        }
        wait = outcome.retryAfterSeconds;
        stoppedGroups.set(group, wait);
      }
      // FIFO: a group's later messages wait behind its failed one, and come back with it.
      failed.push(record);
      hidden.push(hide(record, wait));
    }
    await Promise.all(hidden);
    return { batchItemFailures: failed.map((record) => ({ itemIdentifier: record.messageId })) };
  };
}
