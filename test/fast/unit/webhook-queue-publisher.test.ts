import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createWebhookQueuePublisher, deliveryGroupOf } from '../../../functions/adapters/aws/webhook-queue-publisher.ts';
import { eventsOf, petChange, takingEverything } from '../../support/pet-changes.ts';

/** The stream consumer's webhooks on AWS: each event queued per endpoint on the FIFO delivery queue, with SQS mocked. */

const sqs = mockClient(SQSClient);

beforeEach(() => {
  sqs.reset();
});

describe('the webhook queue publisher', () => {
  it('queues each change for each endpoint in a group per pet and endpoint, deduplicated by version', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const publisher = createWebhookQueuePublisher(
      new SQSClient({}),
      'https://sqs/deliveries.fifo',
      takingEverything('https://a.example/h', 'https://b.example/h'),
    );

    await publisher.publish(eventsOf([petChange(9_007_199_254_740_993n, 4)]));

    const entries = sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input.Entries!;
    expect(entries.map((entry) => entry.MessageGroupId)).toEqual([
      deliveryGroupOf('https://a.example/h', 9_007_199_254_740_993n),
      deliveryGroupOf('https://b.example/h', 9_007_199_254_740_993n),
    ]);
    expect(entries[0]!.MessageDeduplicationId).toBe(`${deliveryGroupOf('https://a.example/h', 9_007_199_254_740_993n)}:4`);
    expect(JSON.parse(entries[0]!.MessageBody!)).toMatchObject({ url: 'https://a.example/h', eventId: 'evt_inventory_9007199254740993_4' });
    expect(entries[0]!.MessageBody).toContain('\\"petId\\":9007199254740993');
  });

  it('fails the batch when SQS refuses a message, so the consumer handles it again', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [{ Id: '0', Code: 'InternalError', SenderFault: false }] });
    const publisher = createWebhookQueuePublisher(
      new SQSClient({}),
      'https://sqs/deliveries.fifo',
      takingEverything('https://a.example/h'),
    );

    await expect(publisher.publish(eventsOf([petChange(1n, 1)]))).rejects.toThrow('SQS refused 1 of 1 webhooks (InternalError');
  });
});
