import type { ChangeAttribution } from './change-attribution.ts';
import { ConflictError, ErrorCode, NotFoundError } from './errors.ts';
import type { InventoryItem, InventoryUpdate, PetId } from './schemas.ts';

/** Who asks for a change: the request (its X-Request-Id) and the API key's public id. */
export type ChangeAuthor = Pick<ChangeAttribution, 'requestId' | 'keyId'>;

/** What a compare-and-set found: the entry written, no entry, or the quantity that stood in the way. */
export type CompareAndSetResult = { written: InventoryItem } | { missing: true } | { storedQuantity: number };

/** What the service needs from storage; the DynamoDB adapter implements it. */
export interface InventoryRepository {
  /**
   * Every entry once, in ascending petId order, in batches as the store reads them: the
   * caller can pass each batch on before the next is read, in memory that does not grow with
   * the inventory. An entry updated meanwhile comes with its old or its new value.
   */
  listAll(): AsyncIterable<InventoryItem[]>;
  /**
   * Sets quantity of an existing entry and returns it; undefined when no entry exists. Every
   * change is versioned and attributed in the same write; a quantity already stored writes nothing.
   */
  setQuantity(petId: PetId, quantity: number, attribution: ChangeAttribution): Promise<InventoryItem | undefined>;
  /** Sets quantity only while the stored quantity is `changeFrom`, in one atomic step (versioned as setQuantity). */
  compareAndSetQuantity(petId: PetId, changeFrom: number, quantity: number, attribution: ChangeAttribution): Promise<CompareAndSetResult>;
  /** The entry of one pet; undefined when no entry exists. Consistent reads see every write answered before them. */
  get(petId: PetId, options?: { consistent?: boolean }): Promise<InventoryItem | undefined>;
  /**
   * Creates each entry or replaces its quantity and status (the operators' import, the seed), each
   * a versioned change attributed to `attribution`: writing the same entries again changes nothing.
   */
  putMany(items: readonly InventoryItem[], attribution: ChangeAttribution): Promise<void>;
}

function petNotFound(petId: PetId): NotFoundError {
  return new NotFoundError(ErrorCode.petNotFound, `No inventory entry exists for pet ${petId}.`);
}

export function byPetId(a: InventoryItem, b: InventoryItem): number {
  return a.petId < b.petId ? -1 : a.petId > b.petId ? 1 : 0;
}

/** One entry per pet, sorted by petId, in batches (see InventoryRepository.listAll). */
export function listInventory(repository: InventoryRepository): AsyncIterable<InventoryItem[]> {
  return repository.listAll();
}

/** One entry, read strongly consistent: what a compare-and-set built on it will compare against. */
export async function getInventoryItem(repository: Pick<InventoryRepository, 'get'>, petId: PetId): Promise<InventoryItem> {
  const item = await repository.get(petId, { consistent: true });
  if (!item) throw petNotFound(petId);
  return item;
}

/**
 * Sets the stock count and nothing else: status is left as it is, because the spec
 * defines no transition from quantity to status. With changeFromQuantity the write happens
 * only while the stored count is that one, so a count read, changed and written back never
 * overwrites a change made in between. A stored count that already is the new one is a
 * conflict like any other: it may be another writer's change, and only the client can tell.
 */
export async function updateInventory(
  repository: Pick<InventoryRepository, 'setQuantity' | 'compareAndSetQuantity'>,
  petId: PetId,
  update: InventoryUpdate,
  author: ChangeAuthor,
): Promise<InventoryItem> {
  if (update.changeFromQuantity === undefined) {
    const item = await repository.setQuantity(petId, update.quantity, { kind: 'set', ...author });
    if (!item) throw petNotFound(petId);
    return item;
  }
  const result = await repository.compareAndSetQuantity(petId, update.changeFromQuantity, update.quantity, {
    kind: 'compareAndSet',
    ...author,
  });
  if ('written' in result) return result.written;
  if ('missing' in result) throw petNotFound(petId);
  throw new ConflictError(
    ErrorCode.quantityChanged,
    `The stored quantity of pet ${petId} is ${result.storedQuantity}, not changeFromQuantity ${update.changeFromQuantity}; nothing was written. Read it again and retry.`,
  );
}
