import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANGE_FEED_PARTITION, createChangeFeedRepository } from '../../../functions/adapters/dynamodb/change-feed-repository.ts';
import { createDocumentClient } from '../../../functions/adapters/dynamodb/document-client.ts';
import { feedCursorAfter, listChangeFeed, type ChangeFeedRepository } from '../../../functions/domain/change-feed.ts';
import { petChange } from '../../support/pet-changes.ts';

/** The feed stores a change's fields as JSON beside its petId. */
const withoutPet = ({ petId: _petId, ...change }: ReturnType<typeof petChange>) => change;

const FEED_TABLE = 'change-feed';

/**
 * Why the feed's order is a sequence allocated in the transaction that commits the entries, and
 * not a timestamp: a timestamp is taken before the write commits, so a slow writer can commit an
 * entry with an earlier stamp after a poller has moved its cursor past that stamp.
 */

interface Entry {
  key: number;
  id: string;
}

/** A store that commits entries whole and answers `key > after` in key order, as a strongly consistent Query does. */
class OrderedStore {
  readonly entries: Entry[] = [];
  commit(entry: Entry): void {
    this.entries.push(entry);
    this.entries.sort((a, b) => a.key - b.key);
  }
  after(key: number): Entry[] {
    return this.entries.filter((entry) => entry.key > key);
  }
}

/** Two writers, A slower than B: A takes its key first, B takes its key and commits, a poller reads, then A commits. */
function raceOfTwoWriters(keyAtStart: (store: OrderedStore) => number | undefined, keyAtCommit: (store: OrderedStore) => number) {
  const store = new OrderedStore();
  const seen: string[] = [];
  let cursor = 0;
  const poll = () => {
    const page = store.after(cursor);
    seen.push(...page.map((entry) => entry.id));
    cursor = page.at(-1)?.key ?? cursor;
  };
  const keyOfA = keyAtStart(store);
  const keyOfB = keyAtStart(store);
  store.commit({ key: keyOfB ?? keyAtCommit(store), id: 'B' });
  poll();
  store.commit({ key: keyOfA ?? keyAtCommit(store), id: 'A' });
  poll();
  return seen;
}

describe('the change feed cursor', () => {
  it('would miss a change under a timestamp cursor: the slower writer commits behind the cursor', () => {
    let clock = 1_000;
    const seen = raceOfTwoWriters(
      () => (clock += 1),
      () => 0,
    );

    expect(seen).toEqual(['B']);
  });

  it('misses nothing with a sequence taken when the entry commits: nothing can commit behind a cursor', () => {
    const seen = raceOfTwoWriters(
      () => undefined,
      (store) => (store.entries.at(-1)?.key ?? 0) + 1,
    );

    expect(seen).toEqual(['B', 'A']);
  });
});

describe('the feed repository', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  afterEach(() => dynamo.reset());
  const repository = () => createChangeFeedRepository(createDocumentClient({ endpoint: 'http://127.0.0.1:1' }), FEED_TABLE, 396);
  const stored = (seq: number) => ({ feed: CHANGE_FEED_PARTITION, seq, petId: 7n, change: JSON.stringify(withoutPet(petChange(7n, seq))) });

  it("answers a poller at the feed's head in one Query: the cursor's own entry shows the feed has reached it", async () => {
    dynamo.on(QueryCommand).resolves({ Items: [stored(42)] });

    const page = await listChangeFeed(repository(), { cursor: feedCursorAfter(42) });

    expect(page).toEqual({ changes: [], nextCursor: feedCursorAfter(42) });
    expect(dynamo).toHaveReceivedCommandTimes(QueryCommand, 1);
    expect(dynamo).toHaveReceivedCommandWith(QueryCommand, {
      KeyConditionExpression: 'feed = :feed AND seq >= :from',
      ExpressionAttributeValues: { ':feed': CHANGE_FEED_PARTITION, ':from': 42 },
      ConsistentRead: true,
      Limit: 101,
    });
  });

  it("reads the feed's sequence only when neither the cursor's entry nor a later one is there, and refuses a cursor beyond it", async () => {
    dynamo
      .on(QueryCommand, { ExpressionAttributeValues: { ':feed': CHANGE_FEED_PARTITION, ':from': 43 } })
      .resolves({ Items: [] })
      .on(QueryCommand, { KeyConditionExpression: 'feed = :feed AND seq = :sequence' })
      .resolves({ Items: [{ feed: CHANGE_FEED_PARTITION, seq: 0, last: 42 }] });

    await expect(listChangeFeed(repository(), { cursor: feedCursorAfter(43) })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
    expect(dynamo).toHaveReceivedCommandTimes(QueryCommand, 2);
  });
});

describe('GET /inventory/changes query', () => {
  const empty: Pick<ChangeFeedRepository, 'page'> = { page: async () => ({ entries: [], reached: true }) };

  it('starts from the oldest retained change without a cursor, and always hands back a cursor', async () => {
    const asked: unknown[] = [];
    const page = await listChangeFeed(
      {
        page: async (options) => {
          asked.push(options);
          return { entries: [], reached: true };
        },
      },
      {},
    );

    expect(asked).toEqual([{ afterSeq: 0, limit: 100 }]);
    expect(page).toEqual({ changes: [], nextCursor: feedCursorAfter(0) });
  });

  it.each([
    ['not base64!'],
    ['MTIz'],
    [Buffer.from('feed.-1').toString('base64url')],
    [Buffer.from('feed.01').toString('base64url')],
    [Buffer.from('feed.99999999999999999').toString('base64url')],
    [`${feedCursorAfter(5)}=`],
  ])('refuses the cursor %s with INVALID_QUERY', async (cursor) => {
    await expect(listChangeFeed(empty, { cursor })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
  });

  it.each([['0'], ['1001'], ['1.5'], ['ten'], ['']])('refuses limit=%s with INVALID_QUERY', async (limit) => {
    await expect(listChangeFeed(empty, { limit })).rejects.toMatchObject({
      code: 'INVALID_QUERY',
      message: expect.stringContaining('limit'),
    });
  });
});
