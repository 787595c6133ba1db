import type { ChangeAttribution } from './change-attribution.ts';
import { ErrorCode } from './errors.ts';
import { MAX_HOLDS_PER_PET, MAX_QUANTITY } from './vocabulary.ts';
import type { InventoryCount, InventoryItem, InventoryUpdate, PetAdjustment, PetId } from './schemas.ts';

/**
 * The one write model of stock. Every kind of write an entry can take is a StockWrite: what it
 * changes, under which preconditions, who asked and why. A repository writes it as one
 * conditional write (alone, or as an action of a transaction) and answers what it found: the
 * entry as written, or the entry as the refusal saw it. What a refusal means is decided here,
 * and only here, whichever path (a PATCH, an adjustment, a batch, a keyed PATCH) made the write.
 */

/** Who asks for a change: the request (its X-Request-Id) and the API key's public id. */
export type ChangeAuthor = Pick<ChangeAttribution, 'requestId' | 'keyId'>;

/** Stock of one pet held for a reservation until expiresAt, as the pet's entry carries it. */
export interface Hold {
  reservationId: string;
  quantity: number;
  /** Unix milliseconds: from this moment on the hold holds nothing, whether or not its expiry is recorded yet. */
  expiresAt: number;
}

/** An entry and its version: the number of changes recorded in its history, its ETag on the wire. */
export interface VersionedItem {
  item: InventoryItem;
  /** 0 for an entry not written since versions were introduced. */
  version: number;
  /** The holds the entry carries, expired ones included until their expiry is recorded; absent where the reader did not read them. */
  holds?: readonly Hold[];
}

/** The holds of an entry that hold nothing any more at `nowMs` but are still counted in its stored figures. */
export function expiredHolds(entry: VersionedItem | undefined, nowMs: number): Hold[] {
  return (entry?.holds ?? []).filter((hold) => hold.expiresAt <= nowMs);
}

/** What the holds that have not expired at `nowMs` hold: an entry's `reserved` as the API answers it. */
export function heldAt(holds: readonly Hold[], nowMs: number): number {
  return holds.reduce((sum, hold) => (hold.expiresAt > nowMs ? sum + hold.quantity : sum), 0);
}

/** What is left to promise: the stock on hand less what is held, never below 0 (a count may be set below what is held). */
export function availableOf(quantity: number, reserved: number): number {
  return Math.max(0, quantity - reserved);
}

/** A count as the API answers an entry no reservation holds: nothing reserved, all of it available. */
export function unheld(count: InventoryCount): InventoryItem {
  return { ...count, reserved: 0, available: count.quantity };
}

/** The conditions a set of the quantity may carry. */
export interface WritePreconditions {
  /** Compare-and-set: write only while the stored quantity is this one. */
  changeFrom?: number;
  /** If-Match: write only while the entry's version is one of these. */
  versions?: readonly number[];
}

/**
 * A write of one entry: an addition that keeps the quantity within 0 and MAX_QUANTITY (a removal
 * takes only stock no reservation holds), a set under preconditions, a hold for a reservation
 * (of stock available, within MAX_HOLDS_PER_PET holds), or the settling of a hold: sold (a
 * commit: the stock and the hold go down together) or given back (a release, an expiry). Each
 * refuses an entry that does not exist (no upsert); a set of the quantity already stored writes
 * nothing. A removal or a hold may be refused while the entry still counts a hold past its
 * expiresAt (its stored figures cannot tell the time): the writer records those expiries and
 * writes again (see expiredHolds).
 */
export type StockWrite = { petId: PetId; attribution: ChangeAttribution } & (
  | { delta: number }
  | { set: { quantity: number; preconditions: WritePreconditions } }
  | { hold: Hold }
  | { settle: { reservationId: string; quantity: number; sold: boolean } }
);

/** What the store did with a write: wrote it (the entry after it), or refused it (the entry as the refusal saw it; undefined: no entry). */
export type StockWriteResult = { written: VersionedItem } | { refused: VersionedItem | undefined };

/** An error that wrote nothing, in the words a client sees (and a key's record keeps to answer again). */
export interface Refusal {
  code: ErrorCode;
  message: string;
}

/** What a refused write means: a refusal, or (a set to the quantity the entry already holds) the entry as it is. */
export type RefusalMeaning = { refusal: Refusal } | { unchanged: VersionedItem };

const NOTHING_WRITTEN = 'Nothing was written.';

export function petNotFound(petId: PetId): Refusal {
  return { code: ErrorCode.petNotFound, message: `No inventory entry exists for pet ${petId}.` };
}

/** The conditions an update carries: its changeFromQuantity (compare-and-set) and the versions of its If-Match. */
function writePreconditions(update: InventoryUpdate, versions?: readonly number[]): WritePreconditions {
  const { changeFromQuantity } = update;
  return { ...(changeFromQuantity === undefined ? {} : { changeFrom: changeFromQuantity }), ...(versions ? { versions } : {}) };
}

/**
 * A PATCH's write: a set, or a compare-and-set with changeFromQuantity, under the versions of its
 * If-Match. A key it was sent with is recorded in its history.
 */
export function updateWrite(
  petId: PetId,
  update: InventoryUpdate,
  author: ChangeAuthor,
  versions?: readonly number[],
  idempotencyKey?: string,
): StockWrite {
  return {
    petId,
    set: { quantity: update.quantity, preconditions: writePreconditions(update, versions) },
    attribution: {
      kind: update.changeFromQuantity === undefined ? 'set' : 'compareAndSet',
      ...author,
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    },
  };
}

/** An adjustment's write; each change of a batch is one, with the batch's request id and key. */
export function adjustmentWrite({ petId, delta, reason }: PetAdjustment, author: ChangeAuthor, idempotencyKey: string): StockWrite {
  return { petId, delta, attribution: { kind: 'adjustment', ...author, reason, idempotencyKey } };
}

/** A reservation's hold of one pet: reserved up, available down, the hold on the entry, all in one write. */
export function holdWrite(petId: PetId, hold: Hold, attribution: ChangeAttribution): StockWrite {
  return { petId, hold, attribution };
}

/** The end of a reservation's hold of one pet: sold by a commit, given back by a release or an expiry. */
export function settleWrite(
  petId: PetId,
  hold: Pick<Hold, 'reservationId' | 'quantity'>,
  sold: boolean,
  attribution: ChangeAttribution,
): StockWrite {
  return { petId, settle: { ...hold, sold }, attribution };
}

/** What an entry holds, in words: `12 in stock, 3 reserved, 9 available`. */
function stockText(entry: InventoryItem): string {
  return entry.reserved === 0
    ? `${entry.quantity} in stock`
    : `${entry.quantity} in stock, ${entry.reserved} reserved, ${entry.available} available`;
}

/** Why the store refused a write that is not a set, in one sentence, from the entry as the refusal saw it. */
function writeFault(write: StockWrite, entry: InventoryItem): { code: ErrorCode; sentence: string } {
  const { petId } = write;
  if ('hold' in write) {
    const { quantity } = write.hold;
    return entry.available < quantity
      ? {
          code: ErrorCode.insufficientStock,
          sentence: `Pet ${petId} has ${entry.available} available (${stockText(entry)}); ${quantity} cannot be held.`,
        }
      : {
          code: ErrorCode.tooManyHolds,
          sentence: `Pet ${petId} is held by ${MAX_HOLDS_PER_PET} active reservations, the most one pet carries; commit or release some first.`,
        };
  }
  if ('settle' in write)
    return {
      code: ErrorCode.insufficientStock,
      sentence: `Pet ${petId} has ${entry.quantity} in stock, counted below the ${write.settle.quantity} this reservation holds; it cannot be sold.`,
    };
  const delta = 'delta' in write ? write.delta : 0;
  if (delta >= 0)
    return {
      code: ErrorCode.quantityOutOfRange,
      sentence: `Pet ${petId} has ${entry.quantity} in stock; a delta of ${delta} would take it above ${MAX_QUANTITY}.`,
    };
  return entry.reserved === 0
    ? {
        code: ErrorCode.insufficientStock,
        sentence: `Pet ${petId} has ${entry.quantity} in stock; a delta of ${delta} would take it below 0.`,
      }
    : {
        code: ErrorCode.insufficientStock,
        sentence: `Pet ${petId} has ${stockText(entry)}; a delta of ${delta} would take stock that reservations hold.`,
      };
}

/**
 * What the store's refusal of one write means, from the entry as the refusal saw it: no entry;
 * a version If-Match did not name; a quantity the compare-and-set did not expect; an addition
 * that would leave the quantity's range; or else a set to the quantity already stored, which
 * needed no write.
 */
export function meaningOfRefusal(write: StockWrite, found: VersionedItem | undefined): RefusalMeaning {
  const { petId } = write;
  if (!found) return { refusal: petNotFound(petId) };
  if (!('set' in write)) {
    const { code, sentence } = writeFault(write, found.item);
    return { refusal: { code, message: `${sentence} ${NOTHING_WRITTEN}` } };
  }
  const { changeFrom, versions } = write.set.preconditions;
  if (versions && !versions.includes(found.version))
    return {
      refusal: {
        code: ErrorCode.preconditionFailed,
        message: `The entry of pet ${petId} is at version ${found.version} (ETag "${found.version}"), not the one If-Match names; nothing was written. Read it again and retry.`,
      },
    };
  if (changeFrom !== undefined && found.item.quantity !== changeFrom)
    return {
      refusal: {
        code: ErrorCode.quantityChanged,
        message: `The stored quantity of pet ${petId} is ${found.item.quantity}, not changeFromQuantity ${changeFrom}; nothing was written. Read it again and retry.`,
      },
    };
  return { unchanged: found };
}

/** A write the store refused within several written all or none, by its position, with its entry as the refusal saw it. */
export interface RefusedWrite {
  index: number;
  entry: VersionedItem | undefined;
}

/**
 * Why writes made all or none (an adjustment, a batch, a reservation's holds) were refused, naming every pet at fault: PET_NOT_FOUND when any pet
 * has no entry (those pets), else each write the stock refused: INSUFFICIENT_STOCK when any
 * of them would take more than is available, TOO_MANY_HOLDS when a pet carries the most holds, QUANTITY_OUT_OF_RANGE when all would go above the largest quantity.
 */
export function batchRefusal(writes: readonly StockWrite[], refused: readonly RefusedWrite[]): Refusal {
  const unknown = refused.filter(({ entry }) => !entry).map(({ index }) => writes[index]!.petId);
  if (unknown.length > 0) {
    const pets = unknown.length === 1 ? `pet ${unknown[0]}` : `pets ${unknown.join(', ')}`;
    return {
      code: ErrorCode.petNotFound,
      message: `No inventory entry exists for ${pets}.${writes.length > 1 ? ` ${NOTHING_WRITTEN}` : ''}`,
    };
  }
  const faults = refused.map(({ index, entry }) => writeFault(writes[index]!, entry!.item));
  const code =
    [ErrorCode.insufficientStock, ErrorCode.tooManyHolds].find((first) => faults.some((fault) => fault.code === first)) ??
    ErrorCode.quantityOutOfRange;
  const noun = writes.some((write) => 'hold' in write) ? 'items' : 'adjustments';
  const count = writes.length > 1 ? `${faults.length} of ${writes.length} ${noun} cannot be applied. ` : '';
  return { code, message: `${count}${faults.map((fault) => fault.sentence).join(' ')} ${NOTHING_WRITTEN}` };
}
