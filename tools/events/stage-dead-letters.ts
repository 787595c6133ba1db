import { GetQueueAttributesCommand, ReceiveMessageCommand, type SQSClient, StartMessageMoveTaskCommand } from '@aws-sdk/client-sqs';
import type { QueuedWebhook } from '../../functions/adapters/aws/webhook-queue-publisher.ts';
import { webhookUrlForLogs } from '../../functions/domain/webhooks.ts';

/** A deployed stage's webhook queues, from its stack outputs. */
export interface StageWebhookQueues {
  deliveryQueueArn: string;
  deadLetterQueueUrl: string;
  deadLetterQueueArn: string;
}

/** ReceiveMessage's largest batch: the oldest dead letters a listing shows. */
const PEEKED_MESSAGES = 10;

/**
 * Lists the dead letters of a stage: their approximate count (SQS's own figure), then the oldest
 * ones' event id, URL (origin and path) and last failure (the delivery function puts these in each message). Peeks
 * without deleting: the messages are received with a visibility timeout of 0, so they stay
 * available to a redrive at once; the receive only raises their receive count.
 */
export async function listStageDeadLetters(sqs: SQSClient, queues: StageWebhookQueues, print: (line: string) => void): Promise<void> {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queues.deadLetterQueueUrl, AttributeNames: ['ApproximateNumberOfMessages'] }),
  );
  const count = Number(Attributes.ApproximateNumberOfMessages ?? 0);
  if (count > 0) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queues.deadLetterQueueUrl,
        MaxNumberOfMessages: PEEKED_MESSAGES,
        VisibilityTimeout: 0,
        WaitTimeSeconds: 0,
        MessageAttributeNames: ['lastFailure'],
        MessageSystemAttributeNames: ['SentTimestamp'],
      }),
    );
    for (const message of Messages) {
      const webhook = parseWebhook(message.Body);
      const failure = message.MessageAttributes?.lastFailure?.StringValue ?? 'unknown';
      const sent = message.Attributes?.SentTimestamp ? new Date(Number(message.Attributes.SentTimestamp)).toISOString() : 'unknown';
      print(
        `${webhook?.eventId ?? message.MessageId}  ${webhook?.url ? webhookUrlForLogs(webhook.url) : 'unknown URL'}  dead-lettered ${sent}, last: ${failure}`,
      );
    }
    if (Messages.length < count) print(`(the oldest ${Messages.length} shown)`);
  }
  print(`About ${count} dead-lettered webhook${count === 1 ? '' : 's'} in ${queues.deadLetterQueueArn}.`);
}

/**
 * Moves every dead letter back to the delivery queue with SQS's own redrive (StartMessageMoveTask,
 * which FIFO dead-letter queues support), named explicitly: the delivery function, not SQS, moved
 * them there, so SQS knows of no "original source" to return them to. Each is then retried with a
 * fresh 24 hours: SQS enqueues a redriven message as a new one (a new message id and enqueue time).
 */
export async function redriveStageDeadLetters(sqs: SQSClient, queues: StageWebhookQueues, print: (line: string) => void): Promise<void> {
  const { TaskHandle } = await sqs.send(
    new StartMessageMoveTaskCommand({ SourceArn: queues.deadLetterQueueArn, DestinationArn: queues.deliveryQueueArn }),
  );
  print(
    `Started moving the dead letters of ${queues.deadLetterQueueArn} back to ${queues.deliveryQueueArn} (task ${TaskHandle ?? 'unknown'}); \`npm run events -- dead-letters --stage\` shows what is left.`,
  );
}

function parseWebhook(body: string | undefined): Partial<QueuedWebhook> | undefined {
  try {
    return body ? (JSON.parse(body) as Partial<QueuedWebhook>) : undefined;
  } catch {
    return undefined;
  }
}
