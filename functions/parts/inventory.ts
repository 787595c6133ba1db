import { createInventoryRepository } from '../adapters/dynamodb/inventory-repository.ts';
import type { InventoryRepository } from '../domain/inventory-service.ts';
import type { Part } from './part.ts';

/** The inventory's entries: the listing, one entry, a PATCH without a key, an import. */
export const inventoryPart: Part<InventoryRepository> = ({ stores, config }) =>
  createInventoryRepository(stores.client, config.inventoryTable);
