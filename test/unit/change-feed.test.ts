import { describe, expect, it } from 'vitest';
import { feedCursorAfter, listChangeFeed, type ChangeFeedRepository } from '../../functions/domain/change-feed.ts';

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

describe('GET /inventory/changes query', () => {
  const empty: Pick<ChangeFeedRepository, 'page'> = { page: async () => [] };

  it('starts from the oldest retained change without a cursor, and always hands back a cursor', async () => {
    const asked: unknown[] = [];
    const page = await listChangeFeed(
      {
        page: async (options) => {
          asked.push(options);
          return [];
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
