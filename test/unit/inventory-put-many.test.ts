import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createInventoryRepository, inventoryKey } from '../../functions/adapters/dynamodb/inventory-repository.ts';
import { createDocumentClient } from '../../functions/adapters/dynamodb/document-client.ts';
import { StoreUnavailableError } from '../../functions/domain/errors.ts';
import type { InventoryItem } from '../../functions/domain/schemas.ts';

const dynamo = mockClient(DynamoDBDocumentClient);
const TABLE = 'Inventory';
const items = (count: number): InventoryItem[] =>
  Array.from({ length: count }, (_, index) => ({ petId: BigInt(index + 1), quantity: index, status: 'available' }));
const put = (item: InventoryItem) => ({ PutRequest: { Item: { ...item, ...inventoryKey(item.petId) } } });

beforeEach(() => {
  dynamo.reset();
});

describe('InventoryRepository.putMany', () => {
  it('writes in batches of 25, each entry as a whole item under its key', async () => {
    dynamo.on(BatchWriteCommand).resolves({});

    await createInventoryRepository(createDocumentClient({ region: 'eu-west-1' }), TABLE).putMany(items(60));

    const batches = dynamo.commandCalls(BatchWriteCommand).map((call) => call.args[0].input.RequestItems![TABLE]!.length);
    expect(batches).toEqual([25, 25, 10]);
    expect(dynamo).toHaveReceivedCommandWith(BatchWriteCommand, { RequestItems: { [TABLE]: items(25).map(put) } });
  });

  it('sends what the store left unprocessed again, until it is taken', async () => {
    const [first, second, third] = items(3);
    dynamo
      .on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { [TABLE]: [put(second!), put(third!)] } })
      .resolvesOnce({ UnprocessedItems: { [TABLE]: [put(third!)] } })
      .resolves({});

    await createInventoryRepository(createDocumentClient({ region: 'eu-west-1' }), TABLE).putMany([first!, second!, third!]);

    expect(dynamo.commandCalls(BatchWriteCommand).map((call) => call.args[0].input.RequestItems![TABLE])).toEqual([
      [put(first!), put(second!), put(third!)],
      [put(second!), put(third!)],
      [put(third!)],
    ]);
  });

  it('gives up as a store fault when items stay unprocessed', async () => {
    dynamo
      .on(BatchWriteCommand)
      .callsFake((input: { RequestItems: Record<string, unknown[]> }) => ({ UnprocessedItems: input.RequestItems }));

    const writing = createInventoryRepository(createDocumentClient({ region: 'eu-west-1' }), TABLE).putMany(items(1));

    await expect(writing).rejects.toThrow(StoreUnavailableError);
    expect(dynamo.commandCalls(BatchWriteCommand)).toHaveLength(8);
  });
});
