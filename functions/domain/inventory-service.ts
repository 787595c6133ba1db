import type { ChangeAttribution } from './change-attribution.ts';
import { ApiError, ErrorCode } from './errors.ts';
import type { InventoryCount, InventoryItem, InventoryUpdate, PetId } from './schemas.ts';
import {
  type ChangeAuthor,
  meaningOfRefusal,
  petNotFound,
  type StockWrite,
  type StockWriteResult,
  updateWrite,
  type VersionedItem,
} from './stock-writes.ts';

/** What the service needs from storage; the DynamoDB adapter implements it. */
export interface InventoryRepository {
  /**
   * Every entry once, in ascending petId order, in batches as the store reads them: the
   * caller can pass each batch on before the next is read, in memory that does not grow with
   * the inventory. An entry updated meanwhile comes with its old or its new value. With
   * `lowStockOnly`, only the entries whose available stock is below their low-stock threshold.
   */
  listAll(options?: { lowStockOnly?: boolean }): AsyncIterable<InventoryItem[]>;
  /**
   * Writes one entry in one conditional write, no read: the change, its version and its
   * attribution at once. Answers the entry written, or the entry as the refusal saw it.
   */
  write(write: StockWrite): Promise<StockWriteResult>;
  /** The entry of one pet; undefined when no entry exists. Consistent reads see every write answered before them. */
  get(petId: PetId, options?: { consistent?: boolean }): Promise<VersionedItem | undefined>;
  /**
   * Creates each entry or replaces its other fields (the operators' import, the seed), each
   * a versioned change attributed to `attribution`: writing the same entries again changes nothing.
   * Each petId at most once. The entries are written in groups, several groups in flight, each
   * retried with backoff while the store throttles it; `onWritten` hears the count of entries
   * done so far (written, or found already as given) after each group.
   */
  putMany(items: readonly InventoryCount[], attribution: ChangeAttribution, onWritten?: (written: number) => void): Promise<void>;
}

export function byPetId(a: InventoryCount, b: InventoryCount): number {
  return a.petId < b.petId ? -1 : a.petId > b.petId ? 1 : 0;
}

/**
 * One entry per pet, sorted by petId, in batches (see InventoryRepository.listAll); with
 * `lowStock=true`, the reorder report: only the pets whose available stock is below their
 * low-stock threshold (low-stock.ts). `lowStock` is `true` or `false`, anything else 400: checked
 * before anything is read, so a mistake is answered before the first byte.
 */
export function listInventory(
  repository: InventoryRepository,
  query: { lowStock?: string | undefined } = {},
): AsyncIterable<InventoryItem[]> {
  if (query.lowStock !== undefined && query.lowStock !== 'true' && query.lowStock !== 'false')
    throw new ApiError(ErrorCode.invalidQuery, `lowStock: must be true or false, not "${query.lowStock}".`);
  return query.lowStock === 'true' ? repository.listAll({ lowStockOnly: true }) : repository.listAll();
}

/** One entry, read strongly consistent: what a compare-and-set built on it will compare against. */
export async function getInventoryItem(repository: Pick<InventoryRepository, 'get'>, petId: PetId): Promise<VersionedItem> {
  const item = await repository.get(petId, { consistent: true });
  if (!item) {
    const { code, message } = petNotFound(petId);
    throw new ApiError(code, message);
  }
  return item;
}

/**
 * Sets the stock count and nothing else: status is left as it is, because the spec
 * defines no transition from quantity to status. With changeFromQuantity the write happens
 * only while the stored count is that one, so a count read, changed and written back never
 * overwrites a change made in between. A stored count that already is the new one is a
 * conflict like any other: it may be another writer's change, and only the client can tell.
 * With `versions` (If-Match) the write happens only while the entry has one of them.
 * An update sent with an Idempotency-Key is written by the IdempotentWriter instead, once per key,
 * as the same StockWrite.
 */
export async function updateInventory(
  repository: Pick<InventoryRepository, 'write'>,
  petId: PetId,
  update: InventoryUpdate,
  author: ChangeAuthor,
  versions?: readonly number[],
): Promise<VersionedItem> {
  const write = updateWrite(petId, update, author, versions);
  const result = await repository.write(write);
  if ('written' in result) return result.written;
  const meaning = meaningOfRefusal(write, result.refused);
  if ('unchanged' in meaning) return meaning.unchanged;
  throw new ApiError(meaning.refusal.code, meaning.refusal.message);
}
