import { describe, expect, it } from 'vitest';
import {
  adjustmentWrite,
  batchRefusal,
  meaningOfRefusal,
  unheld,
  updateWrite,
  type VersionedItem,
} from '../../../functions/domain/stock-writes.ts';
import { MAX_QUANTITY } from '../../../functions/domain/vocabulary.ts';

const author = { requestId: 'request-1', keyId: 'key_test' };
const entry = (quantity: number, version = 4, petId = 7n): VersionedItem => ({
  item: unheld({ petId, quantity, status: 'available' }),
  version,
});

describe('the writes a request makes', () => {
  it('a PATCH is a set, or a compare-and-set with changeFromQuantity, under its If-Match, attributed to its author and key', () => {
    expect(updateWrite(7n, { quantity: 5 }, author)).toEqual({
      petId: 7n,
      set: { quantity: 5, preconditions: {} },
      attribution: { kind: 'set', ...author },
    });
    expect(updateWrite(7n, { quantity: 5, changeFromQuantity: 3 }, author, [2, 4], 'key-1')).toEqual({
      petId: 7n,
      set: { quantity: 5, preconditions: { changeFrom: 3, versions: [2, 4] } },
      attribution: { kind: 'compareAndSet', ...author, idempotencyKey: 'key-1' },
    });
  });

  it('an adjustment is an addition with its reason and key', () => {
    expect(adjustmentWrite({ petId: 7n, delta: -2, reason: 'return' }, author, 'key-1')).toEqual({
      petId: 7n,
      delta: -2,
      attribution: { kind: 'adjustment', ...author, reason: 'return', idempotencyKey: 'key-1' },
    });
  });
});

describe('what a refused write means, from the entry the refusal saw', () => {
  const set = (preconditions: { changeFrom?: number; versions?: number[] }) => ({
    ...updateWrite(7n, { quantity: 5 }, author),
    set: { quantity: 5, preconditions },
  });

  it('no entry: PET_NOT_FOUND, for a set and an addition alike', () => {
    const notFound = { refusal: { code: 'PET_NOT_FOUND', message: 'No inventory entry exists for pet 7.' } };
    expect(meaningOfRefusal(set({}), undefined)).toEqual(notFound);
    expect(meaningOfRefusal(adjustmentWrite({ petId: 7n, delta: 1, reason: 'arrival' }, author, 'k'), undefined)).toEqual(notFound);
  });

  it('a version If-Match does not name: PRECONDITION_FAILED, before the compare-and-set is judged', () => {
    expect(meaningOfRefusal(set({ versions: [2, 3], changeFrom: 1 }), entry(9))).toEqual({
      refusal: {
        code: 'PRECONDITION_FAILED',
        message: 'The entry of pet 7 is at version 4 (ETag "4"), not the one If-Match names; nothing was written. Read it again and retry.',
      },
    });
  });

  it('a quantity the compare-and-set did not expect: QUANTITY_CHANGED, naming the stored one', () => {
    expect(meaningOfRefusal(set({ versions: [4], changeFrom: 1 }), entry(9))).toEqual({
      refusal: {
        code: 'QUANTITY_CHANGED',
        message: 'The stored quantity of pet 7 is 9, not changeFromQuantity 1; nothing was written. Read it again and retry.',
      },
    });
  });

  it('a set to the quantity already stored needed no write: the entry as it is', () => {
    expect(meaningOfRefusal(set({ versions: [4], changeFrom: 5 }), entry(5))).toEqual({ unchanged: entry(5) });
  });

  it('an addition below 0 or above the largest quantity: INSUFFICIENT_STOCK or QUANTITY_OUT_OF_RANGE, stating the stock', () => {
    expect(meaningOfRefusal(adjustmentWrite({ petId: 7n, delta: -3, reason: 'return' }, author, 'k'), entry(2))).toEqual({
      refusal: { code: 'INSUFFICIENT_STOCK', message: 'Pet 7 has 2 in stock; a delta of -3 would take it below 0. Nothing was written.' },
    });
    expect(meaningOfRefusal(adjustmentWrite({ petId: 7n, delta: 2, reason: 'arrival' }, author, 'k'), entry(MAX_QUANTITY - 1))).toEqual({
      refusal: {
        code: 'QUANTITY_OUT_OF_RANGE',
        message: `Pet 7 has ${MAX_QUANTITY - 1} in stock; a delta of 2 would take it above ${MAX_QUANTITY}. Nothing was written.`,
      },
    });
  });
});

describe('why additions written all or none were refused', () => {
  const writes = [
    adjustmentWrite({ petId: 1n, delta: -5, reason: 'adjustment' }, author, 'k'),
    adjustmentWrite({ petId: 2n, delta: 3, reason: 'arrival' }, author, 'k'),
    adjustmentWrite({ petId: 3n, delta: 1, reason: 'arrival' }, author, 'k'),
  ];

  it('every pet without an entry, when any has none', () => {
    expect(
      batchRefusal(writes, [
        { index: 0, entry: entry(9, 1, 1n) },
        { index: 1, entry: undefined },
        { index: 2, entry: undefined },
      ]),
    ).toEqual({
      code: 'PET_NOT_FOUND',
      message: 'No inventory entry exists for pets 2, 3. Nothing was written.',
    });
  });

  it('else every addition at fault, INSUFFICIENT_STOCK when any would go below 0', () => {
    expect(
      batchRefusal(writes, [
        { index: 0, entry: entry(4, 1, 1n) },
        { index: 1, entry: entry(MAX_QUANTITY, 1, 2n) },
      ]),
    ).toEqual({
      code: 'INSUFFICIENT_STOCK',
      message: `2 of 3 adjustments cannot be applied. Pet 1 has 4 in stock; a delta of -5 would take it below 0. Pet 2 has ${MAX_QUANTITY} in stock; a delta of 3 would take it above ${MAX_QUANTITY}. Nothing was written.`,
    });
  });

  it('a batch of one says what a single adjustment says', () => {
    expect(batchRefusal(writes.slice(0, 1), [{ index: 0, entry: entry(4, 1, 1n) }])).toEqual(
      (meaningOfRefusal(writes[0]!, entry(4, 1, 1n)) as { refusal: unknown }).refusal,
    );
  });
});
