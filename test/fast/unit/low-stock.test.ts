import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alertIdOf, eventsOfWrite } from '../../../functions/domain/inventory-events.ts';
import type { EntryImage } from '../../../functions/domain/inventory-history.ts';
import { availableOf, stockAlertOf } from '../../../functions/domain/low-stock.ts';
import { propertyRuns } from '../../support/property-runs.ts';

/** The crossing rule: an alert per crossing of the threshold, decided from a change's own images. */

const at = (version: number, quantity: number, lowStockThreshold?: number, extra: Partial<EntryImage> = {}): EntryImage => ({
  petId: 7n,
  quantity,
  status: 'available',
  reserved: 0,
  version,
  lastChange: {
    kind: 'adjustment',
    keyId: 'key_test',
    requestId: `request-${version}`,
    occurredAt: `2026-11-27T10:00:0${version % 10}.000Z`,
  },
  ...(lowStockThreshold === undefined ? {} : { lowStockThreshold }),
  ...extra,
});

/** The entries a sequence of quantities makes, versions 1, 2, … under one threshold. */
const entries = (quantities: readonly number[], threshold?: number) =>
  quantities.map((quantity, index) => at(index + 1, quantity, threshold));

/** The alerts a sequence of entries raises, change by change. */
function alertsOf(sequence: readonly EntryImage[]) {
  return sequence.slice(1).flatMap((after, index) => stockAlertOf(sequence[index], after) ?? []);
}

describe('available stock', () => {
  it('is the quantity less what the holds hold as stored, never below 0', () => {
    expect(availableOf({ quantity: 10, reserved: 3 })).toBe(7);
    expect(availableOf({ quantity: 2, reserved: 3 })).toBe(0);
    expect(availableOf({ quantity: 10, reserved: 0 })).toBe(10);
  });
});

describe('the crossing rule', () => {
  it('10 → 6 → 4 → 3 → 8 against a threshold of 5 raises one low_stock at 4 and one restocked at 8', () => {
    expect(alertsOf(entries([10, 6, 4, 3, 8], 5))).toEqual([
      {
        type: 'inventory.low_stock',
        occurredAt: '2026-11-27T10:00:03.000Z',
        data: { petId: 7n, threshold: 5, available: 4, quantity: 4, reserved: 0, version: 3 },
      },
      {
        type: 'inventory.restocked',
        occurredAt: '2026-11-27T10:00:05.000Z',
        data: { petId: 7n, threshold: 5, available: 8, quantity: 8, reserved: 0, version: 5 },
      },
    ]);
  });

  it('raises nothing without a threshold', () => {
    expect(alertsOf(entries([10, 6, 4, 3, 8]))).toEqual([]);
  });

  it('takes exactly the threshold as enough: from 5 to 4 is low, from 4 to 5 restocked', () => {
    expect(alertsOf(entries([5, 4, 5], 5)).map(({ type, data }) => [type, data.available])).toEqual([
      ['inventory.low_stock', 4],
      ['inventory.restocked', 5],
    ]);
  });

  it('raises nothing for a write that made no change, such as setting the threshold of a pet already below it', () => {
    expect(stockAlertOf(at(3, 2), at(3, 2, 5))).toBeUndefined();
    // The next change below it is no crossing either: the pet was already below.
    expect(stockAlertOf(at(3, 2, 5), at(4, 1, 5))).toBeUndefined();
  });

  it("raises nothing at an entry's creation, which has no before to cross from", () => {
    expect(stockAlertOf(undefined, at(1, 2, 5))).toBeUndefined();
  });

  it('judges available, not quantity, once reservations keep it on the entry', () => {
    const alert = stockAlertOf(
      at(1, 10, 5, { reserved: 2, available: 8 } as Partial<EntryImage>),
      at(2, 10, 5, { reserved: 6, available: 4 } as Partial<EntryImage>),
    );
    expect(alert?.type).toBe('inventory.low_stock');
    expect(alert?.data).toEqual({ petId: 7n, threshold: 5, available: 4, quantity: 10, reserved: 6, version: 2 });
  });

  it('announces an alert right after its change, under an id of the pet, the version and the kind', () => {
    const events = eventsOfWrite(at(2, 6, 5), at(3, 4, 5));
    expect(events.map(({ id, position, body }) => [id, position, body.type])).toEqual([
      ['evt_inventory_7_3', 3, 'inventory.changed'],
      ['evt_inventory_7_3_low_stock', 3.5, 'inventory.low_stock'],
    ]);
    expect(
      alertIdOf({ type: 'inventory.restocked', data: { petId: 7n, threshold: 5, available: 8, quantity: 8, reserved: 0, version: 9 } }),
    ).toBe('evt_inventory_7_9_restocked');
  });

  it('over any sequence of changes, raises alerts that alternate, each at a real crossing, one per crossing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 25 }), { minLength: 1, maxLength: 40 }),
        (threshold, quantities) => {
          const sequence = entries(quantities, threshold);
          const alerts = alertsOf(sequence);
          const low = (quantity: number) => quantity < threshold;
          const crossings = quantities.slice(1).filter((quantity, index) => low(quantity) !== low(quantities[index]!)).length;
          expect(alerts).toHaveLength(crossings);
          for (const [index, alert] of alerts.entries()) {
            const before = quantities[alert.data.version - 2]!;
            const after = quantities[alert.data.version - 1]!;
            expect(alert.type).toBe(low(after) ? 'inventory.low_stock' : 'inventory.restocked');
            expect(low(before)).not.toBe(low(after));
            if (index > 0) expect(alert.type).not.toBe(alerts[index - 1]!.type);
          }
        },
      ),
      propertyRuns(),
    );
  });
});
