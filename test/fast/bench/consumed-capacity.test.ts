import { NumberValue } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { itemBytes, readUnitsOf, sequentialRoundTrips, type StoreCall, writeUnitsOf } from '../../../bench/consumed-capacity.ts';

describe('itemBytes', () => {
  it("sizes an item by DynamoDB's rules: names and values, a number by its significant digits", () => {
    // 'petId' 5 + 5 digits (3 bytes + 1) = 9; 'status' 6 + 'sold' 4 = 10; 'ok' 2 + true 1 = 3.
    expect(itemBytes({ petId: 12_345, status: 'sold', ok: true })).toBe(22);
    // A wrapped number and a bigint size as the number they hold; leading zeros and the sign do not count.
    expect(itemBytes({ n: NumberValue.from('-0012345') })).toBe(itemBytes({ n: 12_345n }));
    // A map: 3 bytes, and each element its name, its value and 1; a list: 3, and each element its value and 1.
    expect(itemBytes({ m: { a: 'xy' } })).toBe(1 + 3 + (1 + 2 + 1));
    expect(itemBytes({ l: ['xy', 'z'] })).toBe(1 + 3 + (2 + 1) + (1 + 1));
  });
});

describe('units', () => {
  it('bills a write per KB and a read per 4 KB, at least one (half for an eventually consistent read)', () => {
    expect([writeUnitsOf(0), writeUnitsOf(1_024), writeUnitsOf(1_025)]).toEqual([1, 1, 2]);
    expect([readUnitsOf(0, true), readUnitsOf(4_097, true), readUnitsOf(4_097, false)]).toEqual([1, 2, 1]);
  });
});

const call = (startedAt: number, endedAt: number): StoreCall => ({
  operation: 'GetItem',
  table: 'inventory',
  kind: 'read',
  capacityUnits: 1,
  conditionFailed: false,
  startedAt,
  endedAt,
});

describe('sequentialRoundTrips', () => {
  it('counts calls in flight together once, and a call sent after another answered as the next', () => {
    expect(sequentialRoundTrips([])).toBe(0);
    // The count and the read sent together: one round trip, whichever answers first.
    expect(sequentialRoundTrips([call(0, 5), call(0.2, 4)])).toBe(1);
    // The count, then the write once it answered, then a read after both.
    expect(sequentialRoundTrips([call(10, 15), call(0, 5), call(5, 9)])).toBe(3);
    // A call sent while the first of two concurrent ones is still out belongs to their round trip.
    expect(sequentialRoundTrips([call(0, 3), call(0, 8), call(4, 6)])).toBe(1);
  });
});
