import { DynamoDBDocumentClient, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDocumentClient } from '../../../functions/adapters/dynamodb/document-client.ts';
import {
  createInventoryRepository,
  IMPORT_TRANSACTION_ENTRIES,
  IMPORT_TRANSACTIONS_IN_FLIGHT,
} from '../../../functions/adapters/dynamodb/inventory-repository.ts';
import { inventoryKey } from '../../../functions/adapters/dynamodb/stored-inventory-item.ts';
import { StoreUnavailableError } from '../../../functions/domain/errors.ts';
import { versionedChange } from '../../../functions/adapters/dynamodb/versioned-change.ts';
import type { InventoryCount } from '../../../functions/domain/schemas.ts';
import { canceled, testAttribution, throttled } from '../../support/inventory.ts';

const dynamo = mockClient(DynamoDBDocumentClient);
const TABLE = 'Inventory';
const NOW = new Date('2026-11-24T06:30:00.123Z');
const items = (count: number): InventoryCount[] =>
  Array.from({ length: count }, (_, index) => ({ petId: BigInt(index + 1), quantity: index, status: 'available' }));
const repository = () => createInventoryRepository(createDocumentClient({ region: 'eu-west-1' }), TABLE);

/** The petIds of each transaction sent, in the order they were sent. */
const sentPetIds = () =>
  dynamo
    .commandCalls(TransactWriteCommand)
    .map((call) => (call.args[0].input as TransactWriteCommandInput).TransactItems!.map((action) => action.Update!.Key!.petId as bigint));
const tokens = () => dynamo.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.ClientRequestToken);

beforeEach(() => {
  dynamo.reset();
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('InventoryRepository.putMany', () => {
  it('writes each entry as a versioned, attributed Update in a transaction, never a Put that would reset its version', async () => {
    dynamo.on(TransactWriteCommand).resolves({});
    const [item] = items(1);
    const attribution = testAttribution('import');

    await repository().putMany([item!], attribution);

    const change = versionedChange(attribution, NOW);
    expect(dynamo).toHaveReceivedCommandTimes(TransactWriteCommand, 1);
    expect(dynamo).toHaveReceivedCommandWith(TransactWriteCommand, {
      TransactItems: [
        {
          Update: {
            TableName: TABLE,
            Key: inventoryKey(item!.petId),
            UpdateExpression: `SET #quantity = :quantity, #status = :status, available = :quantity - if_not_exists(reserved, :zero), ${change.set}`,
            ConditionExpression:
              'attribute_not_exists(petId) OR attribute_not_exists(#quantity) OR #quantity <> :quantity OR attribute_not_exists(#status) OR #status <> :status',
            ExpressionAttributeNames: { '#quantity': 'quantity', '#status': 'status', ...change.names },
            ExpressionAttributeValues: { ':quantity': 0, ':status': 'available', ':zero': 0, ...change.values },
          },
        },
      ],
      ClientRequestToken: expect.any(String),
    });
  });

  it(`writes every entry once, ${IMPORT_TRANSACTION_ENTRIES} to a transaction and ${IMPORT_TRANSACTIONS_IN_FLIGHT} transactions at a time, counting them as they are written`, async () => {
    let inFlight = 0;
    let most = 0;
    dynamo.on(TransactWriteCommand).callsFake(async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      return {};
    });
    const counts: number[] = [];

    await repository().putMany(items(1_050), testAttribution('import'), (written) => counts.push(written));

    expect(sentPetIds().map((group) => group.length)).toEqual([...Array.from({ length: 10 }, () => 100), 50]);
    expect(sentPetIds().flat()).toEqual(items(1_050).map((item) => item.petId));
    expect(most).toBe(IMPORT_TRANSACTIONS_IN_FLIGHT);
    expect(counts).toHaveLength(11);
    expect(counts.at(-1)).toBe(1_050);
    expect(new Set(tokens()).size).toBe(11);
  });

  it('resends a transaction without the entries that already hold what it would write, at once: nothing changed, nothing to record', async () => {
    dynamo
      .on(TransactWriteCommand)
      .rejectsOnce(canceled({ Code: 'None' }, { Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'ConditionalCheckFailed' }))
      .resolves({});

    await repository().putMany(items(4), testAttribution('import'));

    expect(sentPetIds()).toEqual([
      [1n, 2n, 3n, 4n],
      [1n, 3n],
    ]);
  });

  it('sends nothing more when every entry of a transaction already holds what it would write', async () => {
    dynamo.on(TransactWriteCommand).rejects(canceled({ Code: 'ConditionalCheckFailed' }, { Code: 'ConditionalCheckFailed' }));

    await expect(repository().putMany(items(2), testAttribution('import'))).resolves.toBeUndefined();
    expect(dynamo).toHaveReceivedCommandTimes(TransactWriteCommand, 1);
  });

  it.each([
    ['throttles the call', throttled()],
    ['cancels it as throttled', canceled({ Code: 'None' }, { Code: 'ThrottlingError' })],
    ['cancels it for a concurrent write of one of its entries', canceled({ Code: 'TransactionConflict' }, { Code: 'None' })],
  ])('sends the whole transaction again after a backoff when the store %s', async (_case, fault) => {
    dynamo.on(TransactWriteCommand).rejectsOnce(fault).rejectsOnce(fault).resolves({});

    await repository().putMany(items(2), testAttribution('import'));

    expect(sentPetIds()).toEqual([
      [1n, 2n],
      [1n, 2n],
      [1n, 2n],
    ]);
    // Each send is a transaction of its own: a token DynamoDB saw before would answer for that one.
    expect(new Set(tokens()).size).toBe(3);
  });

  it('leaves out an entry found as written while it waits out a conflict on another', async () => {
    dynamo
      .on(TransactWriteCommand)
      .rejectsOnce(canceled({ Code: 'ConditionalCheckFailed' }, { Code: 'TransactionConflict' }, { Code: 'None' }))
      .resolves({});

    await repository().putMany(items(3), testAttribution('import'));

    expect(sentPetIds()).toEqual([
      [1n, 2n, 3n],
      [2n, 3n],
    ]);
  });

  it('gives up on a transaction the store keeps throttling, as the store being unavailable, and starts no other', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    dynamo.on(TransactWriteCommand).rejects(canceled({ Code: 'ThrottlingError' }));

    const groupsInFlight = IMPORT_TRANSACTIONS_IN_FLIGHT * IMPORT_TRANSACTION_ENTRIES;

    await expect(repository().putMany(items(groupsInFlight + 1), testAttribution('import'))).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(sentPetIds().filter((group) => group[0] === 1n)).toHaveLength(8);
    // The transactions in flight beside it give up too, and the one after them never starts.
    expect(sentPetIds().flat()).not.toContain(BigInt(groupsInFlight + 1));
  });

  it('does not retry a transaction cancelled for a reason a retry cannot cure', async () => {
    dynamo.on(TransactWriteCommand).rejects(canceled({ Code: 'ValidationError' }, { Code: 'None' }));

    await expect(repository().putMany(items(2), testAttribution('import'))).rejects.toThrow('Transaction cancelled');
    expect(dynamo).toHaveReceivedCommandTimes(TransactWriteCommand, 1);
  });

  it('refuses a pet listed twice before writing anything', async () => {
    await expect(repository().putMany([...items(2), items(1)[0]!], testAttribution('import'))).rejects.toThrow(
      'putMany takes each petId at most once.',
    );
    expect(dynamo).toHaveReceivedCommandTimes(TransactWriteCommand, 0);
  });
});
