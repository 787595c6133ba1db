import type { NumberValue } from '@aws-sdk/lib-dynamodb';
import { INVENTORY_ITEM_FIELD_KINDS, INVENTORY_ITEM_FIELDS, type StoredFieldKind } from '../../domain/inventory-item-fields.ts';
import type { InventoryCount, InventoryItem, PetId } from '../../domain/schemas.ts';
import { availableOf, heldAt, type Hold, type VersionedItem } from '../../domain/stock-writes.ts';
import { inventoryTable } from './tables.ts';

/**
 * An entry as the inventory table stores it: its key, and its fields read back in the domain's
 * types. Apart from the repository, so that the stream's consumer does not bundle it.
 */

/**
 * The pet's low-stock threshold, on its entry beside the stock it is compared with: the change
 * stream's images of a change carry both (domain/low-stock.ts). Absent when none is set.
 */
export const LOW_STOCK_THRESHOLD_ATTRIBUTE = 'lowStockThreshold';

export interface InventoryKey {
  shard: number;
  petId: PetId;
}

/** 2^64 divided by the golden ratio, odd: multiplying by it mixes every bit of an id into the top bits. */
const FIBONACCI_MULTIPLIER = 0x9e3779b97f4a7c15n;
const SHARD_BITS = Math.log2(inventoryTable.shards);
if (!Number.isInteger(SHARD_BITS)) throw new Error(`inventoryTable.shards must be a power of two, not ${inventoryTable.shards}.`);
const SHARD_SHIFT = BigInt(64 - SHARD_BITS);

/**
 * The inventory item's key: its shard and its petId. The shard is the top bits of petId times
 * the Fibonacci multiplier (mod 2^64), so consecutive ids and ids that share their low bits
 * (timestamps, snowflake-style ids with an idle sequence) spread evenly over the shards,
 * where petId mod 16 would put every multiple of 16 on one partition.
 */
export function inventoryKey(petId: PetId): InventoryKey {
  return { shard: Number(BigInt.asUintN(64, petId * FIBONACCI_MULTIPLIER) >> SHARD_SHIFT), petId };
}

/** Every shard's partition key value. */
export const INVENTORY_SHARDS: readonly number[] = Array.from({ length: inventoryTable.shards }, (_, shard) => shard);

/**
 * Items per Query page: the listing holds two pages per shard (the one it merges and the next),
 * so this bounds its memory; 1,000 items are about 45 KB of DynamoDB data, 12 read units.
 */
export const INVENTORY_PAGE_SIZE = 1_000;

/**
 * A stored value in the domain's type, by how its field is stored: numbers come back as exact
 * text (unmarshallOptions), so an int64 petId keeps every digit.
 */
const FROM_STORED: Record<StoredFieldKind, (value: unknown) => unknown> = {
  int64: (value) => BigInt(String(value)),
  number: (value) => Number(String(value)),
  string: (value) => value,
};

/**
 * Each hold is an attribute of its own, `hold:<reservationId>` = {quantity, expiresAt}: a write
 * can add or remove one whatever the others are (a map's member cannot be set before the map
 * exists), and `holdCount` counts them for the limit a condition checks.
 */
const HOLD_PREFIX = 'hold:';
export const holdAttribute = (reservationId: string) => `${HOLD_PREFIX}${reservationId}`;

/** The holds a stored entry carries, expired ones included until their expiry is recorded. */
export function holdsOf(stored: Record<string, unknown>): Hold[] {
  return Object.entries(stored).flatMap(([name, value]) => {
    if (!name.startsWith(HOLD_PREFIX)) return [];
    const { quantity, expiresAt } = value as { quantity: NumberValue; expiresAt: NumberValue };
    return [
      { reservationId: name.slice(HOLD_PREFIX.length), quantity: Number(quantity.toString()), expiresAt: Number(expiresAt.toString()) },
    ];
  });
}

/** An entry's count as stored (an item, a stream image, a record's copy). */
export function toInventoryCount(stored: Record<string, unknown>): InventoryCount {
  return Object.fromEntries(
    INVENTORY_ITEM_FIELDS.map((field) => [field, FROM_STORED[INVENTORY_ITEM_FIELD_KINDS[field]](stored[field])]),
  ) as InventoryCount;
}

/**
 * An entry as stored as the domain's InventoryItem at `nowMs`: what its holds hold at that moment,
 * whatever expiries are still to be recorded. A record's copy of an answer carries no holds but
 * the `reserved` it answered.
 */
export function toInventoryItem(stored: Record<string, unknown>, nowMs: number = Date.now()): InventoryItem {
  const count = toInventoryCount(stored);
  const holds = holdsOf(stored);
  const reserved = holds.length > 0 ? heldAt(holds, nowMs) : Number(String(stored.reserved ?? 0));
  return { ...count, reserved, available: availableOf(count.quantity, reserved) };
}

/** An entry as stored, with its version (0 for an entry not written since versions were introduced) and its holds. */
export function toVersionedItem(stored: Record<string, unknown>, nowMs: number = Date.now()): VersionedItem {
  const { version } = stored as { version?: NumberValue };
  return {
    item: toInventoryItem(stored, nowMs),
    version: version === undefined ? 0 : Number(version.toString()),
    holds: holdsOf(stored),
  };
}
