import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDocumentClient } from '../../functions/adapters/dynamodb/document-client.ts';
import { createInventoryRepository, inventoryKey } from '../../functions/adapters/dynamodb/inventory-repository.ts';
import { versionedChange } from '../../functions/adapters/dynamodb/versioned-change.ts';
import type { InventoryItem } from '../../functions/domain/schemas.ts';
import { testAttribution } from '../support/inventory.ts';

const dynamo = mockClient(DynamoDBDocumentClient);
const TABLE = 'Inventory';
const NOW = new Date('2026-11-24T06:30:00.123Z');
const items = (count: number): InventoryItem[] =>
  Array.from({ length: count }, (_, index) => ({ petId: BigInt(index + 1), quantity: index, status: 'available' }));
const repository = () => createInventoryRepository(createDocumentClient({ region: 'eu-west-1' }), TABLE);

beforeEach(() => {
  dynamo.reset();
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('InventoryRepository.putMany', () => {
  it('writes each entry as one versioned, attributed UpdateItem under its key, never a Put that would reset its version', async () => {
    dynamo.on(UpdateCommand).resolves({});
    const [item] = items(1);
    const attribution = testAttribution('import');

    await repository().putMany([item!], attribution);

    const change = versionedChange(attribution, NOW);
    expect(dynamo).toHaveReceivedCommandTimes(UpdateCommand, 1);
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      TableName: TABLE,
      Key: inventoryKey(item!.petId),
      UpdateExpression: `SET quantity = :quantity, #status = :status, ${change.set}`,
      ConditionExpression: 'attribute_not_exists(petId) OR quantity <> :quantity OR #status <> :status',
      ExpressionAttributeNames: { '#status': 'status', ...change.names },
      ExpressionAttributeValues: { ':quantity': 0, ':status': 'available', ...change.values },
    });
  });

  it('writes every entry once, at most 16 at a time', async () => {
    let inFlight = 0;
    let most = 0;
    dynamo.on(UpdateCommand).callsFake(async () => {
      most = Math.max(most, ++inFlight);
      await Promise.resolve();
      inFlight -= 1;
      return {};
    });

    await repository().putMany(items(60), testAttribution('import'));

    const written = dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input.Key!.petId);
    expect(written.sort((a, b) => Number(a) - Number(b))).toEqual(items(60).map((item) => item.petId));
    expect(most).toBe(16);
  });

  it('takes an entry that already holds the quantity and status as written: nothing changed, nothing to record', async () => {
    dynamo.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));

    await expect(repository().putMany(items(2), testAttribution('import'))).resolves.toBeUndefined();
  });
});
