import { unheld } from '../../../functions/domain/stock-writes.ts';
import { BatchWriteCommand, DynamoDBDocumentClient, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createHistoryRepository } from '../../../functions/adapters/dynamodb/history-repository.ts';
import { inVersionRounds, listInventoryChanges } from '../../../functions/domain/inventory-history.ts';
import type { ChangeEventData } from '../../../functions/domain/inventory-events.ts';
import { petChange } from '../../support/pet-changes.ts';
import { createDocumentClient } from '../../../functions/adapters/dynamodb/document-client.ts';

const HISTORY_TABLE = 'history';

const keyOf = ({ petId, version }: ChangeEventData) => `${petId}@${version}`;

describe('inVersionRounds', () => {
  it("puts each pet's entries in version order, one round apart, and every entry in exactly one round", () => {
    const changes = [petChange(1n, 3), petChange(2n, 7), petChange(1n, 1), petChange(1n, 2), petChange(3n, 1), petChange(2n, 8)];

    const rounds = inVersionRounds(changes);

    expect(rounds.map((round) => round.map(keyOf))).toEqual([['1@1', '2@7', '3@1'], ['1@2', '2@8'], ['1@3']]);
    expect(rounds.flat().map(keyOf).sort()).toEqual(changes.map(keyOf).sort());
  });
});

describe('listInventoryChanges', () => {
  const item = unheld({ petId: 7n, quantity: 1, status: 'available' });
  /** A history whose every page ends at version 5 with more to follow, and an entry at `version`, read as asked. */
  const stores = (version: number) => {
    const reads: unknown[] = [];
    return {
      reads,
      inventory: {
        get: async (_petId: bigint, options?: { consistent?: boolean }) => {
          reads.push(options);
          return { item, version };
        },
      },
      history: { page: async () => ({ changes: [(({ petId: _petId, ...change }) => change)(petChange(7n, 5))], more: true }) },
    };
  };

  it('refuses the cursor it handed out for a version the entry no longer has (400 INVALID_QUERY), reading the entry consistently', async () => {
    const handedOut = (await listInventoryChanges(stores(6).inventory, stores(6).history, 7n, {})).nextCursor!;
    const { inventory, history, reads } = stores(4);

    await expect(listInventoryChanges(inventory, history, 7n, { cursor: handedOut })).rejects.toMatchObject({
      code: 'INVALID_QUERY',
      message: 'cursor: not a cursor this operation returned.',
    });
    expect(reads).toEqual([{ consistent: true }]);
  });

  it("refuses another pet's cursor", async () => {
    const { inventory, history } = stores(6);
    const ofPet7 = (await listInventoryChanges(inventory, history, 7n, {})).nextCursor!;

    await expect(listInventoryChanges(inventory, history, 8n, { cursor: ofPet7 })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
    await expect(listInventoryChanges(inventory, history, 7n, { cursor: ofPet7 })).resolves.toMatchObject({ nextCursor: ofPet7 });
  });
});

describe('the history repository', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  afterEach(() => dynamo.reset());

  it('never writes an entry before the one it follows is stored, even when the store leaves that one unprocessed', async () => {
    const stored: string[] = [];
    let leftOnce = false;
    dynamo.on(BatchWriteCommand).callsFake((input: BatchWriteCommandInput) => {
      const requests = input.RequestItems![HISTORY_TABLE]!;
      const keys = requests.map(({ PutRequest }) => `${PutRequest!.Item!.petId}@${PutRequest!.Item!.version}`);
      // The first call leaves pet 1's first entry unprocessed, as DynamoDB may under load.
      const unprocessed = leftOnce ? [] : requests.filter((_, index) => keys[index] === '1@1');
      leftOnce = true;
      stored.push(
        ...keys.filter((key) => !unprocessed.some(({ PutRequest }) => `${PutRequest!.Item!.petId}@${PutRequest!.Item!.version}` === key)),
      );
      return { UnprocessedItems: unprocessed.length > 0 ? { [HISTORY_TABLE]: unprocessed } : {} };
    });
    const history = createHistoryRepository(createDocumentClient({ endpoint: 'http://127.0.0.1:1' }), HISTORY_TABLE, 396);

    await history.record([petChange(1n, 1), petChange(1n, 2), petChange(2n, 1), petChange(1n, 3), petChange(2n, 2)]);

    expect(stored.filter((key) => key.startsWith('1@'))).toEqual(['1@1', '1@2', '1@3']);
    expect(stored.filter((key) => key.startsWith('2@'))).toEqual(['2@1', '2@2']);
  });
});
