import type { NumberValue } from '@aws-sdk/lib-dynamodb';
import { INVENTORY_ITEM_FIELD_KINDS, INVENTORY_ITEM_FIELDS, type StoredFieldKind } from '../../domain/inventory-item-fields.ts';
import type { InventoryItem, PetId } from '../../domain/schemas.ts';
import type { VersionedItem } from '../../domain/stock-writes.ts';
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
 * A stored value in the domain's type, by how its field is stored: numbers come back as exact
 * text (unmarshallOptions), so an int64 petId keeps every digit.
 */
const FROM_STORED: Record<StoredFieldKind, (value: unknown) => unknown> = {
  int64: (value) => BigInt(String(value)),
  number: (value) => Number(String(value)),
  string: (value) => value,
};

/** An entry as stored (an item, a stream image, a record's copy) as the domain's InventoryItem. */
export function toInventoryItem(stored: Record<string, unknown>): InventoryItem {
  return Object.fromEntries(
    INVENTORY_ITEM_FIELDS.map((field) => [field, FROM_STORED[INVENTORY_ITEM_FIELD_KINDS[field]](stored[field])]),
  ) as InventoryItem;
}

/** An entry as stored, with its version (0 for an entry not written since versions were introduced). */
export function toVersionedItem(stored: Record<string, unknown>): VersionedItem {
  const { version } = stored as { version?: NumberValue };
  return { item: toInventoryItem(stored), version: version === undefined ? 0 : Number(version.toString()) };
}
