import { ApiError, ErrorCode } from './errors.ts';
import { changeOf, type EntryImage } from './inventory-history.ts';
import type { LowStockThreshold, PetId, StockAlertData } from './schemas.ts';
import { availableOf as availableOfCount } from './stock-writes.ts';
import { INVENTORY_LOW_STOCK, INVENTORY_RESTOCKED } from './vocabulary.ts';

/**
 * Low-stock thresholds and the alerts they raise. A pet's threshold is kept on its entry, so the
 * change stream's images of a change carry it, and whether a change crossed it is decided from
 * that change's own before and after, with no read: a crossing belongs to exactly one change, so
 * changes made at once that cross once raise one alert, and a consumer handling a change again
 * derives the same alert. Setting or removing a threshold is no change (no version, no history
 * entry, no event) and raises no alert: alerts come from accepted stock changes; the reorder
 * report (`GET /inventory?lowStock=true`) lists a pet already below a threshold just set.
 */

/** What a stored entry (or a stream image) says of its stock: its count and what its holds hold as stored. */
export interface StockLevels {
  quantity: number;
  reserved: number;
}

/**
 * The stock that can be promised, as reservations define it (stock-writes.ts): the quantity less
 * what the entry's holds hold as stored, never below 0. The one place the crossing rule reads it;
 * a hold that expired counts until its expiry is recorded, a change of its own that may restock.
 */
export function availableOf({ quantity, reserved }: StockLevels): number {
  return availableOfCount(quantity, reserved);
}

/** Whether an entry with these levels is low on stock against a threshold: available below it. */
export function isLowOnStock(levels: StockLevels, threshold: number): boolean {
  return availableOf(levels) < threshold;
}

export type StockAlertType = typeof INVENTORY_LOW_STOCK | typeof INVENTORY_RESTOCKED;

/** A crossing as announced: its type, the crossing change's occurredAt, and what it says. */
export interface StockAlert {
  type: StockAlertType;
  occurredAt: string;
  data: StockAlertData;
}

/**
 * The alert a write raised, from the entry before and after it: `inventory.low_stock` when a
 * change took `available` from at least the threshold to below it, `inventory.restocked` when it
 * took it from below back to at least it; undefined for anything else (no threshold, no
 * crossing, a write that made no change, such as setting the threshold, or an entry's creation,
 * which has no before to cross from). Both sides are judged against the threshold the change
 * left, as a change never moves the threshold.
 */
export function stockAlertOf(before: EntryImage | undefined, after: EntryImage | undefined): StockAlert | undefined {
  const change = changeOf(before, after);
  const threshold = after?.lowStockThreshold;
  if (!change || !before || !after || threshold === undefined) return undefined;
  const wasLow = isLowOnStock(before, threshold);
  const isLow = isLowOnStock(after, threshold);
  if (wasLow === isLow) return undefined;
  return {
    type: isLow ? INVENTORY_LOW_STOCK : INVENTORY_RESTOCKED,
    occurredAt: change.occurredAt,
    data: {
      petId: after.petId,
      threshold,
      available: availableOf(after),
      quantity: after.quantity,
      reserved: after.reserved,
      version: change.version,
    },
  };
}

/** What the thresholds need from storage; the DynamoDB adapter implements it on the inventory table. */
export interface LowStockThresholdRepository {
  /** Sets the threshold of an existing entry, making no version; false when the pet has no entry. */
  set(petId: PetId, threshold: number): Promise<boolean>;
  /** The entry's threshold (undefined when none is set), read consistently; undefined when the pet has no entry. */
  get(petId: PetId): Promise<{ threshold: number | undefined } | undefined>;
  /** Removes the threshold, set or not; false when the pet has no entry. */
  remove(petId: PetId): Promise<boolean>;
  /** Every threshold set, a page at a time, in no particular order (the inventory file's export reads them in bulk). */
  listAll(): AsyncIterable<LowStockThreshold[]>;
}

const petNotFound = (petId: PetId) => new ApiError(ErrorCode.petNotFound, `No inventory entry exists for pet ${petId}.`);

export async function setLowStockThreshold(
  thresholds: Pick<LowStockThresholdRepository, 'set'>,
  petId: PetId,
  threshold: number,
): Promise<LowStockThreshold> {
  if (!(await thresholds.set(petId, threshold))) throw petNotFound(petId);
  return { petId, threshold };
}

/** 404 PET_NOT_FOUND for a pet without an entry, 404 LOW_STOCK_THRESHOLD_NOT_FOUND for one without a threshold. */
export async function getLowStockThreshold(thresholds: Pick<LowStockThresholdRepository, 'get'>, petId: PetId): Promise<LowStockThreshold> {
  const found = await thresholds.get(petId);
  if (!found) throw petNotFound(petId);
  if (found.threshold === undefined) throw new ApiError(ErrorCode.lowStockThresholdNotFound, `Pet ${petId} has no low-stock threshold.`);
  return { petId, threshold: found.threshold };
}

/** Removing a threshold that is not set succeeds too: a retried DELETE is not an error. */
export async function removeLowStockThreshold(thresholds: Pick<LowStockThresholdRepository, 'remove'>, petId: PetId): Promise<void> {
  if (!(await thresholds.remove(petId))) throw petNotFound(petId);
}
