import type { ChangeAttribution } from './change-attribution.ts';
import { ApiError, ErrorCode } from './errors.ts';
import type { InventoryItem, InventoryUpdate, PetId } from './schemas.ts';

/** Who asks for a change: the request (its X-Request-Id) and the API key's public id. */
export type ChangeAuthor = Pick<ChangeAttribution, 'requestId' | 'keyId'>;

/** An entry and its version: the number of changes recorded in its history, its ETag on the wire. */
export interface VersionedItem {
  item: InventoryItem;
  /** 0 for an entry not written since versions were introduced. */
  version: number;
}

/**
 * What a write of the quantity found: the entry as it now stands (written, or already holding the
 * quantity, then unwritten), no entry, the quantity a compare-and-set did not find, or the version
 * an If-Match did not find.
 */
export type QuantityWriteResult = { written: VersionedItem } | { missing: true } | { storedQuantity: number } | { storedVersion: number };

/** The conditions a write of the quantity may carry. */
export interface WritePreconditions {
  /** Compare-and-set: write only while the stored quantity is this one. */
  changeFrom?: number;
  /** If-Match: write only while the entry's version is one of these. */
  versions?: readonly number[];
}

/** What the service needs from storage; the DynamoDB adapter implements it. */
export interface InventoryRepository {
  /**
   * Every entry once, in ascending petId order, in batches as the store reads them: the
   * caller can pass each batch on before the next is read, in memory that does not grow with
   * the inventory. An entry updated meanwhile comes with its old or its new value.
   */
  listAll(): AsyncIterable<InventoryItem[]>;
  /**
   * Sets quantity of an existing entry while the preconditions hold, in one conditional write, no
   * read. Every change is versioned and attributed in the same write; a quantity already stored
   * writes nothing (and answers the entry as it is).
   */
  setQuantity(
    petId: PetId,
    quantity: number,
    attribution: ChangeAttribution,
    preconditions?: WritePreconditions,
  ): Promise<QuantityWriteResult>;
  /** The entry of one pet; undefined when no entry exists. Consistent reads see every write answered before them. */
  get(petId: PetId, options?: { consistent?: boolean }): Promise<VersionedItem | undefined>;
  /**
   * Creates each entry or replaces its other fields (the operators' import, the seed), each
   * a versioned change attributed to `attribution`: writing the same entries again changes nothing.
   * Each petId at most once. The entries are written in groups, several groups in flight, each
   * retried with backoff while the store throttles it; `onWritten` hears the count of entries
   * done so far (written, or found already as given) after each group.
   */
  putMany(items: readonly InventoryItem[], attribution: ChangeAttribution, onWritten?: (written: number) => void): Promise<void>;
}

function petNotFound(petId: PetId): ApiError {
  return new ApiError(ErrorCode.petNotFound, `No inventory entry exists for pet ${petId}.`);
}

export function byPetId(a: InventoryItem, b: InventoryItem): number {
  return a.petId < b.petId ? -1 : a.petId > b.petId ? 1 : 0;
}

/** One entry per pet, sorted by petId, in batches (see InventoryRepository.listAll). */
export function listInventory(repository: InventoryRepository): AsyncIterable<InventoryItem[]> {
  return repository.listAll();
}

/** One entry, read strongly consistent: what a compare-and-set built on it will compare against. */
export async function getInventoryItem(repository: Pick<InventoryRepository, 'get'>, petId: PetId): Promise<VersionedItem> {
  const item = await repository.get(petId, { consistent: true });
  if (!item) throw petNotFound(petId);
  return item;
}

/** The conditions an update carries: its changeFromQuantity (compare-and-set) and the versions of its If-Match. */
export function writePreconditions(update: InventoryUpdate, versions?: readonly number[]): WritePreconditions {
  const { changeFromQuantity } = update;
  return { ...(changeFromQuantity === undefined ? {} : { changeFrom: changeFromQuantity }), ...(versions ? { versions } : {}) };
}

/** How an update is attributed in the entry's history: a key it was sent with is recorded with it. */
export function updateAttribution(update: InventoryUpdate, author: ChangeAuthor, idempotencyKey?: string): ChangeAttribution {
  return {
    kind: update.changeFromQuantity === undefined ? 'set' : 'compareAndSet',
    ...author,
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  };
}

/**
 * What a write the store refused found, from the entry as the refusal saw it: no entry, a version
 * If-Match did not name, a quantity the compare-and-set did not expect, or else the quantity
 * already stored (no change: the entry as it is).
 */
export function refusedWrite(preconditions: WritePreconditions, current: VersionedItem | undefined): QuantityWriteResult {
  if (!current) return { missing: true };
  const { changeFrom, versions } = preconditions;
  if (versions && !versions.includes(current.version)) return { storedVersion: current.version };
  if (changeFrom !== undefined && current.item.quantity !== changeFrom) return { storedQuantity: current.item.quantity };
  return { written: current };
}

/** The answer of a write of the quantity: the entry, or the error (PET_NOT_FOUND, PRECONDITION_FAILED, QUANTITY_CHANGED) that says why nothing was written. */
export function quantityWriteAnswer(
  petId: PetId,
  preconditions: WritePreconditions,
  result: QuantityWriteResult,
): VersionedItem | ApiError {
  if ('written' in result) return result.written;
  if ('missing' in result) return petNotFound(petId);
  if ('storedVersion' in result)
    return new ApiError(
      ErrorCode.preconditionFailed,
      `The entry of pet ${petId} is at version ${result.storedVersion} (ETag "${result.storedVersion}"), not the one If-Match names; nothing was written. Read it again and retry.`,
    );
  return new ApiError(
    ErrorCode.quantityChanged,
    `The stored quantity of pet ${petId} is ${result.storedQuantity}, not changeFromQuantity ${preconditions.changeFrom}; nothing was written. Read it again and retry.`,
  );
}

/**
 * Sets the stock count and nothing else: status is left as it is, because the spec
 * defines no transition from quantity to status. With changeFromQuantity the write happens
 * only while the stored count is that one, so a count read, changed and written back never
 * overwrites a change made in between. A stored count that already is the new one is a
 * conflict like any other: it may be another writer's change, and only the client can tell.
 * With `versions` (If-Match) the write happens only while the entry has one of them.
 * An update sent with an Idempotency-Key is written by the InventoryAdjuster instead, once per key.
 */
export async function updateInventory(
  repository: Pick<InventoryRepository, 'setQuantity'>,
  petId: PetId,
  update: InventoryUpdate,
  author: ChangeAuthor,
  versions?: readonly number[],
): Promise<VersionedItem> {
  const preconditions = writePreconditions(update, versions);
  const result = await repository.setQuantity(petId, update.quantity, updateAttribution(update, author), preconditions);
  const answer = quantityWriteAnswer(petId, preconditions, result);
  if ('item' in answer) return answer;
  throw answer;
}
