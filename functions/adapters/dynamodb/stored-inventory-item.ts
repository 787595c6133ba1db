import { INVENTORY_ITEM_FIELD_KINDS, INVENTORY_ITEM_FIELDS, type StoredFieldKind } from '../../domain/inventory-item-fields.ts';
import type { InventoryItem } from '../../domain/schemas.ts';

/**
 * A stored value in the domain's type, by how its field is stored: numbers come back as exact
 * text (unmarshallOptions), so an int64 petId keeps every digit.
 */
const FROM_STORED: Record<StoredFieldKind, (value: unknown) => unknown> = {
  int64: (value) => BigInt(String(value)),
  number: (value) => Number(String(value)),
  string: (value) => value,
};

/** An entry as stored (an item, a stream image, a record's copy) as the domain's InventoryItem; apart from the repository, so the stream's consumer does not bundle it. */
export function toInventoryItem(stored: Record<string, unknown>): InventoryItem {
  return Object.fromEntries(
    INVENTORY_ITEM_FIELDS.map((field) => [field, FROM_STORED[INVENTORY_ITEM_FIELD_KINDS[field]](stored[field])]),
  ) as InventoryItem;
}
