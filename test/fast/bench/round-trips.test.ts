import { describe, expect, it } from 'vitest';
import { sequentialRoundTrips, type StoreCall } from '../../../bench/consumed-capacity.ts';

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
