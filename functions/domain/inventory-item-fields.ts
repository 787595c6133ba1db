import type { InventoryCount } from './schemas.ts';

/** How a field of InventoryItem is stored: a number read back as a bigint (an int64 id), a number, or a string. */
export type StoredFieldKind = 'int64' | 'number' | 'string';

/**
 * InventoryCount's fields (an entry's count: InventoryItem without what reservations hold), in the schema's order, and how each is stored: the store's projection
 * and mappings, the idempotency record's copy of an entry and the inventory file take their lists
 * from here. Written out rather than read from the zod schema, which no Lambda bundle may load
 * (test/stacks/infra/bundling.test.ts): the compiler asks here for a field the schema gains, and
 * test/fast/unit/inventory-item-fields.test.ts holds the kinds to the schema's types.
 */
export const INVENTORY_ITEM_FIELD_KINDS = {
  petId: 'int64',
  quantity: 'number',
  status: 'string',
} as const satisfies Record<keyof InventoryCount, StoredFieldKind>;

export const INVENTORY_ITEM_FIELDS = Object.keys(INVENTORY_ITEM_FIELD_KINDS) as readonly (keyof InventoryCount)[];

/**
 * What reservations hold of an entry, answered beside its count (InventoryItem): computed from the
 * entry's holds when it is read, kept as they were answered in an Idempotency-Key's record.
 */
export const HELD_FIELDS = ['reserved', 'available'] as const;
