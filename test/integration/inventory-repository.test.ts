import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listInventory, updateInventory } from '../../functions/domain/inventory-service.ts';
import { MAX_INT64 } from '../../functions/domain/pet-id.ts';
import { writeInventory } from '../../functions/local/seed.ts';
import { startTestStore, type TestStore } from '../support/local-store.ts';

let test: TestStore;

beforeEach(async () => {
  test = await startTestStore();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await test.close();
});

const snapshot = async () =>
  (await test.dependencies.client.send(new ScanCommand({ TableName: test.tables.inventoryTable }))).Items?.length ?? 0;

describe('the inventory repository on DynamoDB Local', () => {
  it('sets the quantity of an existing entry and leaves its status alone', async () => {
    await writeInventory(test.dependencies.client, test.tables.inventoryTable, [{ petId: 10n, quantity: 1, status: 'pending' }]);

    const updated = await updateInventory(test.dependencies.inventory, 10n, { quantity: 42 });

    expect(updated).toEqual({ petId: 10n, quantity: 42, status: 'pending' });
    expect(await listInventory(test.dependencies.inventory)).toEqual([{ petId: 10n, quantity: 42, status: 'pending' }]);
  });

  it('refuses to update a missing entry and creates nothing', async () => {
    await expect(updateInventory(test.dependencies.inventory, 11n, { quantity: 1 })).rejects.toMatchObject({ status: 404, code: 'PET_NOT_FOUND' });
    expect(await snapshot()).toBe(0);
  });

  it('keeps int64 ids exact at and above 2^53, up to the largest int64', async () => {
    const ids = [2n ** 53n + 1n, 1_234_567_890_123_456_789n, MAX_INT64];
    await writeInventory(
      test.dependencies.client,
      test.tables.inventoryTable,
      ids.map((petId) => ({ petId, quantity: 1, status: 'available' as const })),
    );

    await updateInventory(test.dependencies.inventory, MAX_INT64, { quantity: 2_147_483_647 });

    expect((await listInventory(test.dependencies.inventory)).map((item) => [item.petId, item.quantity])).toEqual([
      [2n ** 53n + 1n, 1],
      [1_234_567_890_123_456_789n, 1],
      [MAX_INT64, 2_147_483_647],
    ]);
  });

  it('reads every page of a Scan larger than one 1 MB page, and sorts across pages', async () => {
    // 10 KB of padding per item: 400 items are about 4 MB, so DynamoDB answers in several pages.
    const padding = 'x'.repeat(10_000);
    const ids = Array.from({ length: 400 }, (_, index) => BigInt((index * 7919) % 400) + 1n);
    await Promise.all(
      ids.map((petId) =>
        test.dependencies.client.send(new PutCommand({ TableName: test.tables.inventoryTable, Item: { petId, quantity: 1, status: 'available', padding } })),
      ),
    );
    const send = vi.spyOn(test.dependencies.client, 'send');

    const items = await listInventory(test.dependencies.inventory);

    const scans = send.mock.calls.filter(([command]) => command instanceof ScanCommand);
    expect(scans.length).toBeGreaterThanOrEqual(4);
    expect(items).toHaveLength(400);
    expect(items.map((item) => item.petId)).toEqual(Array.from({ length: 400 }, (_, index) => BigInt(index + 1)));
    expect(items[0]).toEqual({ petId: 1n, quantity: 1, status: 'available' });
  });

  it('applies 40 concurrent updates to one pet: each succeeds and the last write stands whole', async () => {
    await writeInventory(test.dependencies.client, test.tables.inventoryTable, [{ petId: 5n, quantity: 0, status: 'available' }]);
    const quantities = Array.from({ length: 40 }, (_, index) => index + 100);

    const results = await Promise.all(quantities.map((quantity) => updateInventory(test.dependencies.inventory, 5n, { quantity })));

    expect(results.map((item) => item.quantity).sort()).toEqual(quantities);
    const [final] = await listInventory(test.dependencies.inventory);
    expect(quantities).toContain(final!.quantity);
    expect(final).toMatchObject({ petId: 5n, status: 'available' });
  });

  it('applies 40 concurrent updates to 40 pets, each exactly', async () => {
    const pets = Array.from({ length: 40 }, (_, index) => ({ petId: BigInt(index + 1), quantity: 0, status: 'available' as const }));
    await writeInventory(test.dependencies.client, test.tables.inventoryTable, pets);

    await Promise.all(pets.map(({ petId }) => updateInventory(test.dependencies.inventory, petId, { quantity: Number(petId) * 3 })));

    expect((await listInventory(test.dependencies.inventory)).map((item) => item.quantity)).toEqual(pets.map(({ petId }) => Number(petId) * 3));
  });
});
