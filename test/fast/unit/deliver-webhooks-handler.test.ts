import { ChangeMessageVisibilityCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWebhookDeliveryBatch } from '../../../functions/adapters/aws/webhook-delivery-batch.ts';
import { retryDelayMs, WEBHOOK_RETRY_POLICY, type WebhookRetryPolicy } from '../../../functions/domain/webhook-delivery.ts';
import type { AttemptOutcome } from '../../../functions/domain/webhook-delivery-loop.ts';
import { createDeliverWebhooksHandler } from '../../../functions/handlers/deliver-webhooks-handler.ts';
import { DELIVERY_BATCH_SIZE, MAX_RECEIVES } from '../../../lib/inventory-events.ts';
import { linesWrittenBy } from '../../support/log-lines.ts';

/**
 * The delivery function on AWS: the delivery loop over its batch (functions/adapters/aws/webhook-delivery-batch.ts),
 * with SQS mocked (no AWS here): retries by visibility, FIFO order, dead letters by age.
 */

const sqs = mockClient(SQSClient);
const NOW = Date.UTC(2026, 10, 24, 8, 0, 0);
const key = Buffer.alloc(32, 3);

function record(
  messageId: string,
  sentAt: number,
  receiveCount: number,
  { group = 'group', url = 'https://receiver.example/hooks' } = {},
): SQSRecord {
  return {
    messageId,
    receiptHandle: `receipt-${messageId}`,
    body: JSON.stringify({ url, eventId: `evt_inventory_1_${messageId}`, body: '{}' }),
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: String(sentAt),
      MessageGroupId: group,
      MessageDeduplicationId: `dedup-${messageId}`,
      SenderId: 'consumer',
      ApproximateFirstReceiveTimestamp: String(sentAt),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-west-1:123456789012:deliveries.fifo',
    awsRegion: 'eu-west-1',
  };
}

/** The handler as its Lambda module wires it, over the mocked SQS, sending with `send`. */
function handlerSending(send: (eventId: string) => Promise<AttemptOutcome>) {
  return createDeliverWebhooksHandler({
    batchOf: (event, now) =>
      createWebhookDeliveryBatch(
        new SQSClient({}),
        { deliveryQueueUrl: 'https://sqs/deliveries.fifo', deadLetterQueueUrl: 'https://sqs/dead.fifo' },
        event,
        now,
      ),
    signingKey: async () => key,
    send: (_url, message) => send(message.id),
    now: () => NOW,
  });
}

/** Each message's attempt delivered unless `failures` names it, and the ids sent, in order. */
function handlerFailing(failures: Record<string, string> = {}) {
  const sent: string[] = [];
  const handler = handlerSending(async (eventId) => {
    sent.push(eventId);
    const failure = failures[eventId.slice('evt_inventory_1_'.length)];
    return failure ? { delivered: false, failure } : { delivered: true, status: 200 };
  });
  return { handler, sent };
}

beforeEach(() => {
  sqs.reset();
});

/** Each message whose visibility the function changed, with the wait it set, in receipt handle order. */
const visibilitiesChanged = () =>
  sqs
    .commandCalls(ChangeMessageVisibilityCommand)
    .map(({ args: [{ input }] }) => [input.ReceiptHandle, input.VisibilityTimeout])
    .sort(([a], [b]) => String(a).localeCompare(String(b)));

describe('the webhook delivery function', () => {
  it('stops its group at a failed attempt, and hides that message and the later ones of its group for the next backoff (FIFO)', async () => {
    const { handler, sent } = handlerFailing({ '2': 'answered 500' });
    const event: SQSEvent = {
      Records: [record('1', NOW - 5_000, 1, { group: 'other' }), record('2', NOW - 5_000, 3), record('3', NOW - 5_000, 3)],
    };

    const answer = await handler(event);

    expect(sent).toEqual(['evt_inventory_1_1', 'evt_inventory_1_2']);
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: '2' }, { itemIdentifier: '3' }]);
    // The third failed attempt: 4 s, as the policy says; the group's later message comes back with it, not after the queue's visibility timeout.
    expect(visibilitiesChanged()).toEqual([
      ['receipt-2', 4],
      ['receipt-3', 4],
    ]);
  });

  it("goes on with every other group past a failed one, and hands back only the failed group's message and its later ones", async () => {
    const { handler, sent } = handlerFailing({ a1: 'answered 503', d1: 'timed out' });
    const event: SQSEvent = {
      Records: [
        record('a1', NOW - 5_000, 1, { group: 'pet-a' }),
        record('b1', NOW - 5_000, 1, { group: 'pet-b' }),
        record('a2', NOW - 5_000, 1, { group: 'pet-a' }),
        record('c1', NOW - 5_000, 1, { group: 'pet-c' }),
        record('b2', NOW - 5_000, 1, { group: 'pet-b' }),
        record('d1', NOW - 5_000, 6, { group: 'pet-d' }),
        record('a3', NOW - 5_000, 1, { group: 'pet-a' }),
        record('e1', NOW - 5_000, 1, { group: 'pet-e' }),
        record('d2', NOW - 5_000, 1, { group: 'pet-d' }),
      ],
    };

    const answer = await handler(event);

    // Each group's first message is tried, the groups at once, and pet-b's second after its first; a2, a3 and d2 wait
    // behind a1 and d1, untried.
    expect([...sent].sort()).toEqual(['a1', 'b1', 'b2', 'c1', 'd1', 'e1'].map((id) => `evt_inventory_1_${id}`));
    expect(sent.filter((id) => id.endsWith('_b1') || id.endsWith('_b2'))).toEqual(['evt_inventory_1_b1', 'evt_inventory_1_b2']);
    expect(answer.batchItemFailures).toEqual(['a1', 'a2', 'd1', 'a3', 'd2'].map((itemIdentifier) => ({ itemIdentifier })));
    // a1's first failure: 1 s; d1's sixth: 32 s. Each group comes back whole after its own wait.
    expect(visibilitiesChanged()).toEqual([
      ['receipt-a1', 1],
      ['receipt-a2', 1],
      ['receipt-a3', 1],
      ['receipt-d1', 32],
      ['receipt-d2', 32],
    ]);
  });

  it('moves a message queued 24 hours ago to the dead letters, with its group and why, and goes on', async () => {
    const { handler } = handlerFailing({ '1': 'connection failed (ECONNREFUSED)' });

    const answer = await handler({ Records: [record('1', NOW - 24 * 3_600_000 + 30_000, 700)] });

    expect(answer.batchItemFailures).toEqual([]);
    expect(sqs).toHaveReceivedCommandWith(SendMessageCommand, {
      QueueUrl: 'https://sqs/dead.fifo',
      MessageGroupId: 'group',
      MessageAttributes: { lastFailure: { DataType: 'String', StringValue: 'connection failed (ECONNREFUSED)' } },
    });
    expect(sqs).not.toHaveReceivedCommand(ChangeMessageVisibilityCommand);
  });
});

describe("the webhook delivery function's groups", () => {
  it("are served at once: a receiver that is slow to answer one group's message holds up no other group's", async () => {
    let answerSlow: () => void = () => undefined;
    const sent: string[] = [];
    const handler = handlerSending(async (eventId) => {
      sent.push(eventId);
      // The slow receiver answers only once the other group's message was sent: one after the other, this never ends.
      if (eventId.endsWith('_slow')) await new Promise<void>((resolve) => (answerSlow = resolve));
      else answerSlow();
      return { delivered: true, status: 200 };
    });

    const answer = await handler({
      Records: [
        record('slow', NOW - 5_000, 1, { group: 'a', url: 'https://slow.example/hooks' }),
        record('other', NOW - 5_000, 1, { group: 'b' }),
      ],
    });

    expect(sent).toEqual(['evt_inventory_1_slow', 'evt_inventory_1_other']);
    expect(answer.batchItemFailures).toEqual([]);
  });

  it('are handed back whole when an SQS call fails: the invocation throws, as Lambda then retries the batch', async () => {
    sqs.on(SendMessageCommand).rejects(new Error('SQS is unavailable'));
    const { handler } = handlerFailing({ '1': 'answered 500' });

    await expect(
      handler({ Records: [record('1', NOW - 24 * 3_600_000 + 30_000, 700), record('2', NOW - 5_000, 1, { group: 'other' })] }),
    ).rejects.toThrow('SQS is unavailable');
  });
});

describe('the webhook delivery function, for the messages received behind an earlier one of their group', () => {
  it('backs a message off from the first wait at its first failure, however often it was received behind the one before it', async () => {
    const { handler, sent } = handlerFailing({ '2': 'answered 500' });

    // Both received 40 times: the first was tried each time, the second waited behind it, untried.
    const answer = await handler({ Records: [record('1', NOW - 3_600_000, 40), record('2', NOW - 3_600_000, 40)] });

    expect(sent).toEqual(['evt_inventory_1_1', 'evt_inventory_1_2']);
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: '2' }]);
    expect(visibilitiesChanged()).toEqual([['receipt-2', 1]]);
  });

  it('dead-letters a message that waited behind a dead letter by its own 24 hours, with its own failure, and backs off the next', async () => {
    const { handler, sent } = handlerFailing({ '1': 'answered 500', '2': 'answered 502', '3': 'answered 503' });
    const day = 24 * 3_600_000;

    const answer = await handler({
      Records: [record('1', NOW - day + 30_000, 700), record('2', NOW - day + 500, 700), record('3', NOW - 600_000, 700)],
    });

    // 1 is past its 24 hours at the next wait (120 s), 2 at its first (1 s); 3, queued 10 minutes ago, waits 1 s.
    expect(sent).toEqual(['evt_inventory_1_1', 'evt_inventory_1_2', 'evt_inventory_1_3']);
    const deadLetters = sqs
      .commandCalls(SendMessageCommand)
      .map(({ args: [{ input }] }) => [input.MessageDeduplicationId, input.MessageAttributes?.lastFailure?.StringValue]);
    expect(deadLetters).toEqual([
      ['dedup-1', 'answered 500'],
      ['dedup-2', 'answered 502'],
    ]);
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: '3' }]);
    expect(visibilitiesChanged()).toEqual([['receipt-3', 1]]);
  });
});

/**
 * The most receives a message can have before the function's age rule ends it: every wait it is
 * hidden for was granted for an attempt whose next one fell within 24 hours of its queueing (its
 * own or that of a message ahead of it, queued earlier), so its waits add up to at most the
 * policy's retryForMs. Most receives fit when each attempt fails at once (an attempt that runs to
 * attemptTimeoutMs only spreads them further) and when the group's backoff starts over from the
 * first wait as often as it can: at each message received ahead of it (at most a batch less one)
 * and at itself.
 */
function mostReceivesWithinRetryPeriod(policy: WebhookRetryPolicy, backoffStarts: number): number {
  const shortWaits: number[] = [];
  for (let failed = 1; retryDelayMs(policy, failed) < policy.maxRetryDelayMs; failed++) {
    shortWaits.push(...Array<number>(backoffStarts).fill(retryDelayMs(policy, failed)));
  }
  let waited = 0;
  let waits = 0;
  for (const wait of shortWaits) {
    if (waited + wait > policy.retryForMs) break;
    waited += wait;
    waits++;
  }
  waits += Math.floor((policy.retryForMs - waited) / policy.maxRetryDelayMs);
  return 1 + waits;
}

describe("the delivery queue's own dead letters", () => {
  it('cannot take a message before the function dead-letters it by age, even one received behind a batch of others', () => {
    const most = mostReceivesWithinRetryPeriod(WEBHOOK_RETRY_POLICY, DELIVERY_BATCH_SIZE);
    expect(most).toBeLessThanOrEqual(MAX_RECEIVES);
    expect(most).toBe(780);
    // The attempt that dead-letters may run its whole timeout: it is still one receive, the last.
    expect(WEBHOOK_RETRY_POLICY.attemptTimeoutMs).toBeLessThan(WEBHOOK_RETRY_POLICY.maxRetryDelayMs);
  });

  it('would take them first at the former 60 s cap: 1,000 receives came within 17 hours', () => {
    const formerCap = { ...WEBHOOK_RETRY_POLICY, maxRetryDelayMs: 60_000 };
    expect(mostReceivesWithinRetryPeriod(formerCap, 1)).toBeGreaterThan(MAX_RECEIVES);
  });
});

describe("the webhook delivery function's log", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("names the receiver by its URL's origin and path, never its query", async () => {
    vi.stubEnv('LOG_LEVEL', 'INFO');
    const { handler } = handlerFailing({ '1': 'answered 500', '2': 'answered 500' });
    const url = 'https://receiver.example/hooks?token=s3cret';

    const lines = await linesWrittenBy(async () => {
      await handler({ Records: [record('1', NOW - 24 * 3_600_000 + 30_000, 1_440, { url })] });
      await handler({ Records: [record('2', NOW - 5_000, 1, { url })] });
    });

    expect(lines.map((line) => [line.message, line.url])).toEqual([
      ['webhook attempt failed', 'https://receiver.example/hooks'],
      ['webhook dead-lettered', 'https://receiver.example/hooks'],
      ['webhook attempt failed', 'https://receiver.example/hooks'],
    ]);
    expect(JSON.stringify(lines)).not.toContain('s3cret');
  });
});
