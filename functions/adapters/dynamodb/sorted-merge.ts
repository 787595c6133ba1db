/**
 * Merges sources that each yield pages already sorted (one DynamoDB Query per shard) into one
 * sorted sequence, handed out in batches. Each source has at most two pages in memory: the one
 * being merged and the next, requested as soon as the current one arrives, so the store works
 * while the caller serializes. Memory is bounded by the number of sources, never by their length.
 */

interface Cursor<T> {
  iterator: AsyncIterator<readonly T[]>;
  page: readonly T[];
  index: number;
  /** The page after `page`, already requested. */
  next: Promise<IteratorResult<readonly T[]>>;
}

function request<T>(iterator: AsyncIterator<readonly T[]>): Promise<IteratorResult<readonly T[]>> {
  const next = iterator.next();
  // Awaited later; until then a failure must not count as an unhandled rejection.
  next.catch(() => undefined);
  return next;
}

/** Moves the cursor to its next non-empty page; false when its source has no more. */
async function advance<T>(cursor: Cursor<T>): Promise<boolean> {
  for (;;) {
    const result = await cursor.next;
    if (result.done) return false;
    cursor.next = request(cursor.iterator);
    if (result.value.length > 0) {
      cursor.page = result.value;
      cursor.index = 0;
      return true;
    }
  }
}

/** A binary min-heap of cursors ordered by their current item; tiny, since there is one cursor per source. */
class CursorHeap<T> {
  private readonly cursors: Cursor<T>[] = [];

  constructor(private readonly compare: (a: T, b: T) => number) {}

  get size(): number {
    return this.cursors.length;
  }

  get top(): Cursor<T> {
    return this.cursors[0]!;
  }

  push(cursor: Cursor<T>): void {
    const { cursors } = this;
    cursors.push(cursor);
    let child = cursors.length - 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (this.less(cursors[parent]!, cursor)) break;
      cursors[child] = cursors[parent]!;
      child = parent;
    }
    cursors[child] = cursor;
  }

  /** Restores the order after the top cursor moved on. */
  siftTop(): void {
    const { cursors } = this;
    const moved = cursors[0]!;
    let parent = 0;
    for (;;) {
      let smallest = 2 * parent + 1;
      if (smallest >= cursors.length) break;
      if (smallest + 1 < cursors.length && this.less(cursors[smallest + 1]!, cursors[smallest]!)) smallest += 1;
      if (!this.less(cursors[smallest]!, moved)) break;
      cursors[parent] = cursors[smallest]!;
      parent = smallest;
    }
    cursors[parent] = moved;
  }

  removeTop(): void {
    const last = this.cursors.pop()!;
    if (this.cursors.length === 0) return;
    this.cursors[0] = last;
    this.siftTop();
  }

  private less(a: Cursor<T>, b: Cursor<T>): boolean {
    return this.compare(a.page[a.index]!, b.page[b.index]!) < 0;
  }
}

/**
 * Yields every item of every source once, in `compare` order, in batches of at most
 * `maxBatch`. A batch is also handed out whenever a source's page runs out, before waiting
 * for that source's next page: what is merged never waits on the store. Stopping early (or
 * a failing source) ends every source's iteration.
 */
export async function* mergeSortedPages<T>(
  sources: readonly AsyncIterable<readonly T[]>[],
  compare: (a: T, b: T) => number,
  maxBatch: number,
): AsyncGenerator<T[]> {
  const iterators = sources.map((source) => source[Symbol.asyncIterator]());
  try {
    const heap = new CursorHeap<T>(compare);
    const opened = await Promise.all(
      iterators.map(async (iterator) => {
        const cursor: Cursor<T> = { iterator, page: [], index: 0, next: request(iterator) };
        return (await advance(cursor)) ? cursor : undefined;
      }),
    );
    for (const cursor of opened) if (cursor) heap.push(cursor);

    let batch: T[] = [];
    while (heap.size > 0) {
      const cursor = heap.top;
      batch.push(cursor.page[cursor.index]!);
      cursor.index += 1;
      if (batch.length >= maxBatch) {
        yield batch;
        batch = [];
      }
      if (cursor.index < cursor.page.length) {
        heap.siftTop();
        continue;
      }
      if (batch.length > 0) {
        yield batch;
        batch = [];
      }
      if (await advance(cursor)) heap.siftTop();
      else heap.removeTop();
    }
    if (batch.length > 0) yield batch;
  } finally {
    await Promise.allSettled(iterators.map((iterator) => iterator.return?.()));
  }
}
