import { describe, expect, it } from 'vitest';
import { pageCursors } from '../../../functions/domain/page-cursors.ts';

/** One reading of opaque cursors for a pet's history (versions from 1) and the change feed (sequence from 0). */

const history = pageCursors('v1.', { lowest: 1 });
const feed = pageCursors('feed.', { lowest: 0 });

describe('page cursors', () => {
  it('read back the number they were written with, up to 2^53 - 1', () => {
    for (const number of [1, 7, Number.MAX_SAFE_INTEGER]) expect(history.read(history.after(number))).toBe(number);
    expect(feed.read(feed.after(0))).toBe(0);
    expect(feed.after(42)).toBe('ZmVlZC40Mg');
  });

  it.each([
    ["the other listing's cursor", () => history.read(feed.after(3))],
    ['a number below the lowest', () => history.read(Buffer.from('v1.0').toString('base64url'))],
    ['a number past 2^53 - 1', () => history.read(Buffer.from('v1.9007199254740993').toString('base64url'))],
    ['leading zeros', () => feed.read(Buffer.from('feed.07').toString('base64url'))],
    ['a padded spelling of a good cursor', () => history.read(`${history.after(5)}==`)],
    ['text that is not base64url', () => feed.read('feed.5')],
  ])('refuse %s with INVALID_QUERY', (_case, read) => {
    expect(read).toThrow(expect.objectContaining({ code: 'INVALID_QUERY' }));
  });
});
