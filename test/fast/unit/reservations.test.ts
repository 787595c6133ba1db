import { describe, expect, it } from 'vitest';
import { stockWriteInput } from '../../../functions/adapters/dynamodb/stock-write-input.ts';
import { toInventoryItem } from '../../../functions/adapters/dynamodb/stored-inventory-item.ts';
import { statusAt, toReservation, type ReservationRecord } from '../../../functions/domain/reservations.ts';
import {
  availableOf,
  batchRefusal,
  expiredHolds,
  heldAt,
  holdWrite,
  meaningOfRefusal,
  settleWrite,
  unheld,
  type VersionedItem,
} from '../../../functions/domain/stock-writes.ts';
import { MAX_HOLDS_PER_PET } from '../../../functions/domain/vocabulary.ts';

/** The rules of reservations that need no store: what is held at a moment, what a refusal means, what each write asks of DynamoDB. */

const NOW = Date.parse('2026-11-27T12:00:00.000Z');
const attribution = { kind: 'reserve' as const, requestId: 'request-1', keyId: 'key_test', reservationId: 'r-1' };
const hold = (reservationId: string, quantity: number, expiresAt: number) => ({ reservationId, quantity, expiresAt });

describe('what holds hold', () => {
  const holds = [hold('a', 2, NOW + 1), hold('b', 3, NOW), hold('c', 4, NOW - 1)];

  it('counts a hold until the millisecond before its expiresAt, and nothing from it on', () => {
    expect(heldAt(holds, NOW)).toBe(2);
    expect(heldAt(holds, NOW - 1)).toBe(5);
    expect(heldAt(holds, NOW + 1)).toBe(0);
  });

  it('answers available as quantity - reserved, never below 0', () => {
    expect(availableOf(10, 3)).toBe(7);
    expect(availableOf(4, 10)).toBe(0);
  });

  it('finds the holds an entry still counts past their expiresAt', () => {
    const entry: VersionedItem = { item: unheld({ petId: 1n, quantity: 9, status: 'available' }), version: 1, holds };
    expect(expiredHolds(entry, NOW).map((expired) => expired.reservationId)).toEqual(['b', 'c']);
    expect(expiredHolds(undefined, NOW)).toEqual([]);
  });

  it('reads an entry at the moment: its expired holds hold nothing, its stored figures aside', () => {
    const stored = {
      petId: '1',
      quantity: '10',
      status: 'available',
      reserved: '9',
      available: '1',
      'hold:a': { quantity: '2', expiresAt: String(NOW + 1) },
      'hold:c': { quantity: '7', expiresAt: String(NOW) },
    };
    expect(toInventoryItem(stored, NOW)).toEqual({ petId: 1n, quantity: 10, status: 'available', reserved: 2, available: 8 });
  });
});

describe('a reservation at a moment', () => {
  const record: ReservationRecord = {
    reservationId: 'r-1',
    status: 'active',
    items: [{ petId: 1n, quantity: 2 }],
    expiresAt: NOW,
    createdAt: NOW - 900_000,
    keyId: 'key_test',
    requestId: 'request-1',
    idempotencyKey: 'key-1',
  };

  it('is expired from its expiresAt on, whether or not the expiry is recorded, and settled at it', () => {
    expect(statusAt(record, NOW - 1)).toBe('active');
    expect(statusAt(record, NOW)).toBe('expired');
    expect(toReservation(record, NOW)).toMatchObject({ status: 'expired', settledAt: '2026-11-27T12:00:00.000Z', reference: null });
    expect(statusAt({ ...record, status: 'committed' }, NOW + 1)).toBe('committed');
  });
});

describe('what a refused hold or commit means', () => {
  const entry = (quantity: number, reserved: number): VersionedItem => ({
    item: { petId: 5n, quantity, status: 'available', reserved, available: availableOf(quantity, reserved) },
    version: 3,
  });

  it('names each short pet of a cart and what it has, and refuses the cart as INSUFFICIENT_STOCK', () => {
    const writes = [1n, 5n, 6n].map((petId) => holdWrite(petId, hold('r-1', 3, NOW + 1), attribution));
    const refusal = batchRefusal(writes, [
      { index: 1, entry: entry(7, 5) },
      { index: 2, entry: entry(1, 0) },
    ]);
    expect(refusal.code).toBe('INSUFFICIENT_STOCK');
    expect(refusal.message).toBe(
      '2 of 3 items cannot be applied. Pet 5 has 2 available (7 in stock, 5 reserved, 2 available); 3 cannot be held. Pet 6 has 1 available (1 in stock); 3 cannot be held. Nothing was written.',
    );
  });

  it('refuses a hold of a pet with enough available as TOO_MANY_HOLDS: only the holds limit refuses it', () => {
    const meaning = meaningOfRefusal(holdWrite(5n, hold('r-1', 1, NOW + 1), attribution), entry(10, 0));
    expect(meaning).toMatchObject({ refusal: { code: 'TOO_MANY_HOLDS' } });
    expect('refusal' in meaning && meaning.refusal.message).toContain(`${MAX_HOLDS_PER_PET} active reservations`);
  });

  it('refuses a removal of held stock naming what is in stock, reserved and available', () => {
    const meaning = meaningOfRefusal({ petId: 5n, delta: -6, attribution: { ...attribution, kind: 'adjustment' } }, entry(20, 15));
    expect(meaning).toEqual({
      refusal: {
        code: 'INSUFFICIENT_STOCK',
        message:
          'Pet 5 has 20 in stock, 15 reserved, 5 available; a delta of -6 would take stock that reservations hold. Nothing was written.',
      },
    });
  });

  it('refuses a commit of stock a count has set below what it holds as INSUFFICIENT_STOCK', () => {
    const meaning = meaningOfRefusal(settleWrite(5n, { reservationId: 'r-1', quantity: 10 }, true, attribution), entry(4, 10));
    expect(meaning).toMatchObject({ refusal: { code: 'INSUFFICIENT_STOCK' } });
  });
});

describe('what each write asks of DynamoDB', () => {
  it('holds only available stock, within the holds limit, adding the hold, reserved and available in one write', () => {
    const input = stockWriteInput('inventory', holdWrite(5n, hold('r-1', 3, NOW), attribution));
    expect(input.UpdateExpression).toMatch(
      /^SET #hold = :hold, reserved = if_not_exists\(reserved, :zero\) \+ :held, available = if_not_exists\(available, quantity\) - :held, .* ADD holdCount :one$/,
    );
    expect(input.ConditionExpression).toBe(
      'attribute_exists(petId) AND (available >= :held OR (attribute_not_exists(available) AND quantity >= :held)) AND (attribute_not_exists(holdCount) OR holdCount < :maxHolds) AND attribute_not_exists(#hold)',
    );
    expect(input.ExpressionAttributeNames['#hold']).toBe('hold:r-1');
    expect(input.ExpressionAttributeValues).toMatchObject({
      ':hold': { quantity: 3, expiresAt: NOW },
      ':held': 3,
      ':maxHolds': MAX_HOLDS_PER_PET,
    });
  });

  it('sells a hold: quantity and reserved down together, available unmoved, only while the hold is there and the stock is', () => {
    const input = stockWriteInput(
      'inventory',
      settleWrite(5n, { reservationId: 'r-1', quantity: 3 }, true, { ...attribution, kind: 'commit' }),
    );
    expect(input.UpdateExpression).toMatch(
      /^SET reserved = reserved - :held, quantity = quantity - :held, .* REMOVE #hold ADD holdCount :minusOne$/,
    );
    expect(input.ConditionExpression).toBe('attribute_exists(#hold) AND quantity >= :held');
  });

  it('gives a hold back: reserved down, available up, only while the hold is there', () => {
    const input = stockWriteInput(
      'inventory',
      settleWrite(5n, { reservationId: 'r-1', quantity: 3 }, false, { ...attribution, kind: 'release' }),
    );
    expect(input.UpdateExpression).toMatch(
      /^SET reserved = reserved - :held, available = available \+ :held, .* REMOVE #hold ADD holdCount :minusOne$/,
    );
    expect(input.ConditionExpression).toBe('attribute_exists(#hold)');
  });
});
