import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import {
  CHANGE_FEED_PARTITION,
  createChangeFeedRepository,
  FEED_CHANGES_PER_TRANSACTION,
} from '../../../functions/adapters/dynamodb/change-feed-repository.ts';
import { feedCursorAfter, listChangeFeed, type ChangeFeedRepository } from '../../../functions/domain/change-feed.ts';
import { petChange } from '../../support/pet-changes.ts';
import { startTestStore, type TestStore } from '../../support/local-store.ts';

/** The change feed on DynamoDB Local: concurrent appenders, a poller, and a consumer handling a batch twice. */

let store: TestStore;
let feed: ChangeFeedRepository;
/** Each writer has a repository (and so a guess of the sequence) of its own, as consumers on different Lambda instances do. */
const feedOfItsOwn = () => createChangeFeedRepository(store.dependencies.client, store.tables.changeFeedTable, 396);

beforeAll(async () => {
  store = await startTestStore();
  feed = feedOfItsOwn();
});
afterAll(async () => {
  await store?.close();
});

const change = petChange;
const idOf = (data: { petId: bigint; version: number }) => `${data.petId}:${data.version}`;

async function readAll(cursor?: string): Promise<{ ids: string[]; cursor: string }> {
  const ids: string[] = [];
  for (;;) {
    const page = await listChangeFeed(feed, { cursor, limit: '7' });
    ids.push(...page.changes.map(idOf));
    if (page.changes.length === 0) return { ids, cursor: page.nextCursor };
    cursor = page.nextCursor;
  }
}

describe('the change feed', () => {
  it('misses nothing and repeats nothing for a poller that follows 4 concurrent writers', async () => {
    const { cursor: start } = await readAll();
    const writers = Array.from({ length: 4 }, (_, writer) => ({ writer, repository: feedOfItsOwn() }));
    const written: string[] = [];
    let writing = true;

    const polled: string[] = [];
    const poller = (async () => {
      let cursor = start;
      // Follows the feed while the writers write, then reads once more after the last one answered.
      for (let last = false; !last; ) {
        last = !writing;
        const page = await listChangeFeed(feed, { cursor, limit: '5' });
        polled.push(...page.changes.map(idOf));
        cursor = page.nextCursor;
        if (page.changes.length === 5) last = false;
      }
    })();
    await Promise.all(
      writers.map(async ({ writer, repository }) => {
        for (let round = 1; round <= 15; round += 1) {
          // Batches of 1 to 3 changes of the writer's own pets, as one consumer's shard hands them over.
          const batch = Array.from({ length: 1 + (round % 3) }, (_, pet) => change(BigInt(10_000 + writer * 10 + pet), round));
          await repository.append(batch);
          written.push(...batch.map((one) => idOf({ petId: one.petId, version: one.version })));
        }
      }),
    );
    writing = false;
    await poller;

    expect(polled).toHaveLength(written.length);
    expect(new Set(polled)).toEqual(new Set(written));
    // Each pet's changes in version order.
    const versionsOf = (petId: string) => polled.filter((id) => id.startsWith(`${petId}:`)).map((id) => Number(id.split(':')[1]));
    for (const petId of new Set(polled.map((id) => id.split(':')[0]!))) {
      const versions = versionsOf(petId);
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
    }
  });

  it('numbers a change once when a consumer hands the same batch over again', async () => {
    const { cursor } = await readAll();
    const batch = [change(20_001n, 1), change(20_002n, 1)];

    await feed.append(batch);
    await feedOfItsOwn().append([...batch, change(20_001n, 2)]);

    expect((await readAll(cursor)).ids).toEqual(['20001:1', '20002:1', '20001:2']);
  });

  it('takes a batch larger than one transaction holds', async () => {
    const { cursor } = await readAll();
    const batch = Array.from({ length: FEED_CHANGES_PER_TRANSACTION * 2 + 3 }, (_, index) => change(BigInt(30_000 + index), 1));

    await feed.append(batch);

    expect((await readAll(cursor)).ids).toEqual(batch.map((one) => `${one.petId}:1`));
  });

  it('refuses a cursor ahead of every change in the feed, which it never handed out: 400 INVALID_QUERY', async () => {
    const { ids, cursor } = await readAll();
    // Every change appended so far, none expired: the feed's sequence stands at their count.
    const head = ids.length;

    const atHead = await listChangeFeed(feed, { cursor: feedCursorAfter(head) });
    const ahead = listChangeFeed(feed, { cursor: feedCursorAfter(head + 1) });

    expect(cursor).toBe(feedCursorAfter(head));
    expect(atHead).toEqual({ changes: [], nextCursor: feedCursorAfter(head) });
    await expect(ahead).rejects.toMatchObject({ code: 'INVALID_QUERY', message: 'cursor: not a cursor this operation returned.' });
  });

  it("reads on from a cursor whose own entry has expired, to the feed's head and no further", async () => {
    const head = (await readAll()).ids.length;
    await feed.append([change(40_001n, 1), change(40_002n, 1)]);
    // The retention's expiry, as DynamoDB's TTL makes it: both entries gone, the sequence stays.
    for (const seq of [head + 1, head + 2])
      await store.dependencies.client.send(
        new DeleteCommand({ TableName: store.tables.changeFeedTable, Key: { feed: CHANGE_FEED_PARTITION, seq } }),
      );
    await feed.append([change(40_003n, 1)]);

    const afterExpired = await listChangeFeed(feed, { cursor: feedCursorAfter(head + 1) });
    await store.dependencies.client.send(
      new DeleteCommand({ TableName: store.tables.changeFeedTable, Key: { feed: CHANGE_FEED_PARTITION, seq: head + 3 } }),
    );
    const atExpiredHead = await listChangeFeed(feed, { cursor: feedCursorAfter(head + 3) });

    expect(afterExpired.changes.map(idOf)).toEqual(['40003:1']);
    expect(atExpiredHead).toEqual({ changes: [], nextCursor: feedCursorAfter(head + 3) });
    await expect(listChangeFeed(feed, { cursor: feedCursorAfter(head + 4) })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
  });

  it('hands back the same cursor on an empty page, so a poller resumes from it for ever', async () => {
    const { cursor } = await readAll();

    const page = await listChangeFeed(feed, { cursor });

    expect(page).toEqual({ changes: [], nextCursor: cursor });
  });
});
