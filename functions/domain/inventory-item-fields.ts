import type { InventoryItem } from './schemas.ts';

/** How a field of InventoryItem is stored: a number read back as a bigint (an int64 id), a number, or a string. */
export type StoredFieldKind = 'int64' | 'number' | 'string';

/**
 * InventoryItem's fields, in the schema's order, and how each is stored: the store's projection
 * and mappings, the idempotency record's copy of an entry and the inventory file take their lists
 * from here. Written out rather than read from the zod schema, which no Lambda bundle may load
 * (test/stacks/infra/bundles.test.ts): the compiler asks here for a field the schema gains, and
 * test/fast/unit/inventory-item-fields.test.ts holds the kinds to the schema's types.
 */
export const INVENTORY_ITEM_FIELD_KINDS = {
  petId: 'int64',
  quantity: 'number',
  status: 'string',
} as const satisfies Record<keyof InventoryItem, StoredFieldKind>;

export const INVENTORY_ITEM_FIELDS = Object.keys(INVENTORY_ITEM_FIELD_KINDS) as readonly (keyof InventoryItem)[];
