import { ChangeMessageVisibilityCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { DueHead, QueuedDelivery, WebhookDeliveryQueue } from '../../domain/webhook-delivery-loop.ts';
import type { QueuedWebhook } from './webhook-queue-publisher.ts';

export interface WebhookQueueUrls {
  deliveryQueueUrl: string;
  deadLetterQueueUrl: string;
}

export interface BatchDelivery extends QueuedDelivery {
  group: string;
  record: SQSRecord;
}

/** A group of the batch: its messages in FIFO order, how many are done with, and whether one was delivered or dead-lettered. */
interface BatchGroup {
  url: string;
  messages: Array<{ record: SQSRecord; webhook: QueuedWebhook }>;
  done: number;
  movedOn: boolean;
}

/**
 * One invocation's batch of the delivery queue (SQS FIFO, a group per pet and endpoint) as the delivery loop's queue
 * (functions/domain/webhook-delivery-loop.ts). Every message received is attempted or handed back (batchItemFailures):
 * a failed attempt hands back that message and its group's later ones, untried, each hidden for the policy's next wait
 * (ChangeMessageVisibility), so the group comes back whole after its backoff rather than after the queue's visibility
 * timeout. A message past the policy's period is moved to the dead-letter queue with its last failure, whose alarm fires.
 *
 * A message's failed attempts are its receives (ApproximateReceiveCount), except where it was received behind an
 * earlier message of its group: those receives were no attempts of its own, so a message tried after an earlier one of
 * its group was done with in the same batch is at its first attempt, as in npm start's outbox.
 */
export function createWebhookDeliveryBatch(sqs: SQSClient, queues: WebhookQueueUrls, event: SQSEvent, now: () => number = Date.now) {
  const groups = new Map<string, BatchGroup>();
  for (const record of event.Records) {
    const webhook = JSON.parse(record.body) as QueuedWebhook;
    const id = record.attributes.MessageGroupId ?? record.messageId;
    const group = groups.get(id) ?? { url: webhook.url, messages: [], done: 0, movedOn: false };
    group.messages.push({ record, webhook });
    groups.set(id, group);
  }
  const handedBack = new Set<SQSRecord>();
  /** The first failure the loop met (fail): nothing is left to attempt after it. */
  let failure: unknown;
  const left = (group: BatchGroup) => (failure === undefined ? group.messages.length - group.done : 0);
  const movedOn = (id: string) => {
    const group = groups.get(id)!;
    group.done += 1;
    group.movedOn = true;
    return left(group) === 0;
  };
  const due = async (url: string, _nowMs: number, limit: number) =>
    [...groups]
      .filter(([, group]) => group.url === url && left(group) > 0)
      .slice(0, limit)
      .map(([id]) => id);

  const queue: WebhookDeliveryQueue<DueHead<BatchDelivery>> = {
    due,

    async head(id) {
      const group = groups.get(id)!;
      if (left(group) === 0) return undefined;
      const { record, webhook } = group.messages[group.done]!;
      const attempts = group.movedOn ? 0 : Number(record.attributes.ApproximateReceiveCount) - 1;
      return { due: { ...webhook, queuedAt: Number(record.attributes.SentTimestamp), attempts, group: id, record } };
    },

    delivered: async ({ due: { group } }) => movedOn(group),

    async retryLater({ group: id }, { dueAt }) {
      const group = groups.get(id)!;
      // FIFO: the group's later messages wait behind the failed one, and come back with it.
      const waiting = group.messages.slice(group.done).map(({ record }) => record);
      group.done = group.messages.length;
      const VisibilityTimeout = Math.ceil((dueAt - now()) / 1000);
      for (const record of waiting) handedBack.add(record);
      await Promise.all(
        waiting.map(({ receiptHandle: ReceiptHandle }) =>
          sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: queues.deliveryQueueUrl, ReceiptHandle, VisibilityTimeout })),
        ),
      );
    },

    async deadLetter({ group, record }, { lastFailure }) {
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: queues.deadLetterQueueUrl,
          MessageBody: record.body,
          MessageGroupId: record.attributes.MessageGroupId,
          MessageDeduplicationId: record.attributes.MessageDeduplicationId,
          MessageAttributes: { lastFailure: { DataType: 'String', StringValue: lastFailure } },
        }),
      );
      movedOn(group);
    },

    hasPending: async (url) => (await due(url, 0, 1)).length > 0,
  };

  return {
    queue,
    endpoints: [...new Set([...groups.values()].map((group) => group.url))],
    /** Gives the batch up: nothing more of it is attempted, and answer() throws the error. */
    fail(error: unknown): void {
      failure ??= error;
    },
    /** What the invocation answers once the loop is idle; a batch given up throws, so that Lambda hands it back whole. */
    answer(): SQSBatchResponse {
      if (failure !== undefined) throw failure;
      return {
        batchItemFailures: event.Records.filter((record) => handedBack.has(record)).map(({ messageId }) => ({ itemIdentifier: messageId })),
      };
    },
  };
}
