import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookOutbox } from '../../../local/webhook-outbox.ts';
import { eventsOf, petChange, takingEverything } from '../../support/pet-changes.ts';

const dynamo = mockClient(DynamoDBDocumentClient);
afterEach(() => dynamo.reset());

describe('the webhook outbox', () => {
  it("writes a queue's deliveries oldest first, each after the one before, even when the first write is the slowest, then marks the queue due", async () => {
    const written: string[] = [];
    dynamo.on(PutCommand).callsFake(async (input: { Item: { queue: string; version: number } }) => {
      // Version 1 of each pet takes longest: written at once, the newer versions would land before it.
      if (input.Item.version === 1) await new Promise((resolve) => setTimeout(resolve, 30));
      written.push(`${input.Item.queue.split(' ')[0]}:${input.Item.version}`);
      return {};
    });
    dynamo.on(UpdateCommand).callsFake(async (input: { Key: { queue: string; version: number } }) => {
      written.push(`${input.Key.queue.split(' ')[0]}:due`);
      return {};
    });
    const outbox = createWebhookOutbox(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'local' })), 'outbox');

    await outbox.enqueue(
      takingEverything('http://127.0.0.1:1/hook'),
      eventsOf([petChange(7n, 3), petChange(7n, 1), petChange(8n, 1), petChange(7n, 2)]),
      0,
    );

    // The due entry after the deliveries: the sender, finding the queue empty, may remove an entry written before them.
    expect(written.filter((entry) => entry.startsWith('7:'))).toEqual(['7:1', '7:2', '7:3', '7:due']);
    expect(written.filter((entry) => entry.startsWith('8:'))).toEqual(['8:1', '8:due']);
    expect(dynamo.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({ Key: { version: 0 } });
  });
});
