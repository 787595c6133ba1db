import type { ChangeEventData } from './inventory-events.ts';
import { changesPageLimit } from './inventory-history.ts';
import { cursorNotHandedOut, pageCursors } from './page-cursors.ts';
import type { ChangeFeedPage } from './schemas.ts';

/**
 * The change feed: every change of every pet in one global order, for systems that catch up on
 * what they missed. Its order is a sequence allocated in the same transaction that stores the
 * entries it numbers, so entries become visible in sequence order: a reader of `seq > cursor`
 * sees a prefix of what will ever be there, and nothing can appear later behind a cursor it was
 * given. A timestamp taken before the write cannot promise that (see test/fast/unit/change-feed.test.ts).
 */

/** What the feed needs from storage; the DynamoDB adapter implements it. */
export interface ChangeFeedRepository {
  /**
   * Numbers the changes after every change already in the feed and stores them, all in one
   * atomic write; a change the feed holds already (by petId and version) is left out.
   */
  append(changes: readonly ChangeEventData[]): Promise<void>;
  /**
   * Up to `limit` entries after `afterSeq`, in sequence order, read strongly consistently, and
   * whether the feed's sequence has reached `afterSeq`: a cursor beyond it was never handed out.
   */
  page(options: { afterSeq: number; limit: number }): Promise<{ entries: Array<{ seq: number; data: ChangeEventData }>; reached: boolean }>;
}

/** Its nextCursor is always a cursor: a poller resumes from it for ever, and an empty page hands back where it stands. */
export type { ChangeFeedPage };

/** Opaque to clients: the sequence number of the last record handed out (0 before the first). */
const feedCursors = pageCursors('feed.', { lowest: 0 });

export const feedCursorAfter = feedCursors.after;

/**
 * One page of the feed after the cursor (from the oldest retained change without one). A cursor
 * ahead of every change in the feed was never handed out: answered with an empty page, a poller
 * would skip the changes up to it once the feed got there.
 */
export async function listChangeFeed(
  feed: Pick<ChangeFeedRepository, 'page'>,
  query: { cursor?: string | undefined; limit?: string | undefined },
): Promise<ChangeFeedPage> {
  // The same bounds as a pet's history: 1 to 1000, 100 by default.
  const limit = changesPageLimit(query.limit);
  const afterSeq = query.cursor === undefined ? 0 : feedCursors.read(query.cursor);
  const { entries, reached } = await feed.page({ afterSeq, limit });
  if (!reached) throw cursorNotHandedOut();
  return { changes: entries.map((entry) => entry.data), nextCursor: feedCursorAfter(entries.at(-1)?.seq ?? afterSeq) };
}
