import { ErrorCode, NotFoundError } from './errors.ts';
import type { InventoryItem, InventoryUpdate, PetId } from './schemas.ts';

/** What the service needs from storage; the DynamoDB adapter implements it. */
export interface InventoryRepository {
  /**
   * Every entry once, in ascending petId order, in batches as the store reads them: the
   * caller can pass each batch on before the next is read, in memory that does not grow with
   * the inventory. An entry updated meanwhile comes with its old or its new value.
   */
  listAll(): AsyncIterable<InventoryItem[]>;
  /** Sets quantity of an existing entry and returns it; undefined when no entry exists. */
  setQuantity(petId: PetId, quantity: number): Promise<InventoryItem | undefined>;
  /** The entry of one pet; undefined when no entry exists. */
  get(petId: PetId): Promise<InventoryItem | undefined>;
}

export function byPetId(a: InventoryItem, b: InventoryItem): number {
  return a.petId < b.petId ? -1 : a.petId > b.petId ? 1 : 0;
}

/** One entry per pet, sorted by petId, in batches (see InventoryRepository.listAll). */
export function listInventory(repository: InventoryRepository): AsyncIterable<InventoryItem[]> {
  return repository.listAll();
}

/**
 * Sets the stock count and nothing else: status is left as it is, because the spec
 * defines no transition from quantity to status.
 */
export async function updateInventory(
  repository: InventoryRepository,
  petId: PetId,
  update: InventoryUpdate,
): Promise<InventoryItem> {
  const item = await repository.setQuantity(petId, update.quantity);
  if (!item) throw new NotFoundError(ErrorCode.petNotFound, `No inventory entry exists for pet ${petId}.`);
  return item;
}
