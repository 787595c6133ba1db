import { PutCommand, QueryCommand, ScanCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inventoryHasEntries } from '../../../functions/adapters/dynamodb/inventory-repository.ts';
import { INVENTORY_SHARDS, inventoryKey } from '../../../functions/adapters/dynamodb/stored-inventory-item.ts';
import { updateInventory } from '../../../functions/domain/inventory-service.ts';
import { MAX_INT64 } from '../../../functions/domain/pet-id.ts';
import { unheld } from '../../../functions/domain/stock-writes.ts';
import { createLowStockThresholdRepository } from '../../../functions/adapters/dynamodb/low-stock-threshold-repository.ts';
import { seedIfEmpty, writeInventory } from '../../../local/seed.ts';
import { allEntries, idsInShard, TEST_AUTHOR } from '../../support/inventory.ts';
import { startTestStore, type TestStore } from '../../support/local-store.ts';

let test: TestStore;

beforeEach(async () => {
  test = await startTestStore();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await test.close();
});

// A test may scan to see everything the table holds; the service never does.
const snapshot = async () =>
  (await test.dependencies.client.send(new ScanCommand({ TableName: test.tables.inventoryTable }))).Items?.length ?? 0;

describe('the inventory repository on DynamoDB Local', () => {
  it('sets the quantity of an existing entry and leaves its status alone', async () => {
    await writeInventory(test.dependencies.client, test.tables.inventoryTable, [{ petId: 10n, quantity: 1, status: 'pending' }]);

    const updated = await updateInventory(test.dependencies.inventory, 10n, { quantity: 42 }, TEST_AUTHOR);

    expect(updated).toEqual({ item: unheld({ petId: 10n, quantity: 42, status: 'pending' }), version: 2, holds: [] });
    expect(await allEntries(test.dependencies.inventory)).toEqual([{ petId: 10n, quantity: 42, status: 'pending' }]);
  });

  it('refuses to update a missing entry and creates nothing', async () => {
    await expect(updateInventory(test.dependencies.inventory, 11n, { quantity: 1 }, TEST_AUTHOR)).rejects.toMatchObject({
      code: 'PET_NOT_FOUND',
    });
    expect(await snapshot()).toBe(0);
  });

  it('keeps int64 ids exact at and above 2^53, up to the largest int64', async () => {
    const ids = [2n ** 53n + 1n, 1_234_567_890_123_456_789n, MAX_INT64];
    await writeInventory(
      test.dependencies.client,
      test.tables.inventoryTable,
      ids.map((petId) => ({ petId, quantity: 1, status: 'available' as const })),
    );

    await updateInventory(test.dependencies.inventory, MAX_INT64, { quantity: 2_147_483_647 }, TEST_AUTHOR);

    expect((await allEntries(test.dependencies.inventory)).map((item) => [item.petId, item.quantity])).toEqual([
      [2n ** 53n + 1n, 1],
      [1_234_567_890_123_456_789n, 1],
      [MAX_INT64, 2_147_483_647],
    ]);
  });

  it('keys each pet by its shard and petId, and spreads consecutive ids and ids that share their low bits over every shard', async () => {
    const consecutive = Array.from({ length: 1_600 }, (_, index) => BigInt(index + 1));
    // Snowflake-style ids minted one per millisecond: the low 22 bits (worker and sequence) are the same for all.
    const snowflakes = consecutive.map((index) => (1_700_000_000_000n + index) << 22n);
    for (const ids of [consecutive, snowflakes]) {
      const perShard = INVENTORY_SHARDS.map((shard) => ids.filter((petId) => inventoryKey(petId).shard === shard).length);
      expect(Math.min(...perShard)).toBeGreaterThan(60);
      expect(Math.max(...perShard)).toBeLessThan(140);
    }
    await writeInventory(test.dependencies.client, test.tables.inventoryTable, [{ petId: MAX_INT64, quantity: 1, status: 'sold' }]);

    const { Items } = await test.dependencies.client.send(new ScanCommand({ TableName: test.tables.inventoryTable }));

    const { lastChange, ...stored } = Items![0]!;
    expect(Object.fromEntries(Object.entries(stored).map(([name, value]) => [name, String(value)]))).toEqual({
      shard: String(inventoryKey(MAX_INT64).shard),
      petId: MAX_INT64.toString(),
      quantity: '1',
      // Kept beside quantity for the conditions of writes that may take only what no hold holds (a condition cannot subtract).
      available: '1',
      status: 'sold',
      version: '1',
    });
    expect(lastChange).toMatchObject({ kind: 'seed', keyId: 'tool:seed' });
  });

  it("reads every page of a shard, including pages cut by DynamoDB's 1 MB limit, merged in order with the other shards, with Queries only", async () => {
    // 10 KB of padding per item: 400 items of one shard are about 4 MB, so its Query answers in several pages.
    const padding = 'x'.repeat(10_000);
    const crowded = idsInShard(0, 400);
    const elsewhere = idsInShard(1, 10);
    const sorted = [...crowded, ...elsewhere].sort((a, b) => (a < b ? -1 : 1));
    // 20 puts in flight: 410 at once kept a busy engine past the client's 15 s request timeout.
    for (let start = 0; start < sorted.length; start += 20) {
      await Promise.all(
        sorted.slice(start, start + 20).map((petId) =>
          test.dependencies.client.send(
            new PutCommand({
              TableName: test.tables.inventoryTable,
              Item: { ...inventoryKey(petId), quantity: 1, status: 'available', padding },
            }),
          ),
        ),
      );
    }
    const send = vi.spyOn(test.dependencies.client, 'send');

    const items = await allEntries(test.dependencies.inventory);

    const queries = send.mock.calls.map(([command]) => command).filter((command) => command instanceof QueryCommand);
    expect(queries.filter((query) => query.input.ExpressionAttributeValues?.[':shard'] === 0).length).toBeGreaterThanOrEqual(4);
    expect(send.mock.calls.filter(([command]) => !(command instanceof QueryCommand))).toEqual([]);
    expect(items.map((item) => item.petId)).toEqual(sorted);
    expect(items[0]).toEqual({ petId: sorted[0], quantity: 1, status: 'available' });
  });

  it('tells an empty inventory from one with entries with one small Query per shard, and seeds only an empty one', async () => {
    const send = vi.spyOn(test.dependencies.client, 'send');
    expect(await inventoryHasEntries(test.dependencies.client, test.tables.inventoryTable)).toBe(false);
    expect(await seedIfEmpty(test.dependencies.client, test.tables.inventoryTable, [{ petId: 5n, quantity: 1, status: 'sold' }])).toBe(1);
    expect(await seedIfEmpty(test.dependencies.client, test.tables.inventoryTable, [{ petId: 6n, quantity: 1, status: 'sold' }])).toBe(0);

    expect(await allEntries(test.dependencies.inventory)).toEqual([{ petId: 5n, quantity: 1, status: 'sold' }]);
    const reads = send.mock.calls.map(([command]) => command).filter((command) => !(command instanceof TransactWriteCommand));
    expect(reads.every((command) => command instanceof QueryCommand)).toBe(true);
  });

  it("seeds the low-stock thresholds a seed's entries carry, as an import sets them, and no threshold where an entry carries none", async () => {
    const seed = [
      { petId: 5n, quantity: 3, status: 'available' as const, lowStockThreshold: 4 },
      { petId: 6n, quantity: 9, status: 'available' as const },
    ];

    expect(await seedIfEmpty(test.dependencies.client, test.tables.inventoryTable, seed)).toBe(2);

    const thresholds = createLowStockThresholdRepository(test.dependencies.client, test.tables.inventoryTable);
    expect([await thresholds.get(5n), await thresholds.get(6n)]).toEqual([{ threshold: 4 }, { threshold: undefined }]);
    expect(await allEntries(test.dependencies.inventory)).toEqual(seed.map(({ lowStockThreshold: _, ...count }) => count));
  });

  it('applies 40 concurrent updates to one pet: each succeeds and the last write stands whole', async () => {
    await writeInventory(test.dependencies.client, test.tables.inventoryTable, [{ petId: 5n, quantity: 0, status: 'available' }]);
    const quantities = Array.from({ length: 40 }, (_, index) => index + 100);

    const results = await Promise.all(
      quantities.map((quantity) => updateInventory(test.dependencies.inventory, 5n, { quantity }, TEST_AUTHOR)),
    );

    expect(results.map(({ item }) => item.quantity).sort()).toEqual(quantities);
    const [final] = await allEntries(test.dependencies.inventory);
    expect(quantities).toContain(final!.quantity);
    expect(final).toMatchObject({ petId: 5n, status: 'available' });
  });

  it('applies 40 concurrent updates to 40 pets, each exactly', async () => {
    const pets = Array.from({ length: 40 }, (_, index) => ({ petId: BigInt(index + 1), quantity: 0, status: 'available' as const }));
    await writeInventory(test.dependencies.client, test.tables.inventoryTable, pets);

    await Promise.all(
      pets.map(({ petId }) => updateInventory(test.dependencies.inventory, petId, { quantity: Number(petId) * 3 }, TEST_AUTHOR)),
    );

    expect((await allEntries(test.dependencies.inventory)).map((item) => item.quantity)).toEqual(
      pets.map(({ petId }) => Number(petId) * 3),
    );
  });
});
