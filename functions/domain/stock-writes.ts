import type { ChangeAttribution } from './change-attribution.ts';
import { ErrorCode } from './errors.ts';
import { MAX_QUANTITY } from './vocabulary.ts';
import type { InventoryItem, InventoryUpdate, PetAdjustment, PetId } from './schemas.ts';

/**
 * The one write model of stock. Every kind of write an entry can take is a StockWrite: what it
 * changes, under which preconditions, who asked and why. A repository writes it as one
 * conditional write (alone, or as an action of a transaction) and answers what it found: the
 * entry as written, or the entry as the refusal saw it. What a refusal means is decided here,
 * and only here, whichever path (a PATCH, an adjustment, a batch, a keyed PATCH) made the write.
 */

/** Who asks for a change: the request (its X-Request-Id) and the API key's public id. */
export type ChangeAuthor = Pick<ChangeAttribution, 'requestId' | 'keyId'>;

/** An entry and its version: the number of changes recorded in its history, its ETag on the wire. */
export interface VersionedItem {
  item: InventoryItem;
  /** 0 for an entry not written since versions were introduced. */
  version: number;
}

/** The conditions a set of the quantity may carry. */
export interface WritePreconditions {
  /** Compare-and-set: write only while the stored quantity is this one. */
  changeFrom?: number;
  /** If-Match: write only while the entry's version is one of these. */
  versions?: readonly number[];
}

/**
 * A write of one entry: an addition that keeps the quantity within 0 and MAX_QUANTITY, or a set
 * under preconditions. Either refuses an entry that does not exist (no upsert); a set of the
 * quantity already stored writes nothing.
 */
export type StockWrite = { petId: PetId; attribution: ChangeAttribution } & (
  | { delta: number }
  | { set: { quantity: number; preconditions: WritePreconditions } }
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

/** Why the store refused an addition, in one sentence, from the entry as the refusal saw it. */
function additionFault(petId: PetId, delta: number, entry: InventoryItem): { code: ErrorCode; sentence: string } {
  return entry.quantity + delta < 0
    ? {
        code: ErrorCode.insufficientStock,
        sentence: `Pet ${petId} has ${entry.quantity} in stock; a delta of ${delta} would take it below 0.`,
      }
    : {
        code: ErrorCode.quantityOutOfRange,
        sentence: `Pet ${petId} has ${entry.quantity} in stock; a delta of ${delta} would take it above ${MAX_QUANTITY}.`,
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
  if ('delta' in write) {
    const { code, sentence } = additionFault(petId, write.delta, found.item);
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
 * Why additions written all or none (an adjustment, a batch) were refused, naming every pet at fault: PET_NOT_FOUND when any pet
 * has no entry (those pets), else each addition the bounds refused: INSUFFICIENT_STOCK when any
 * of them would go below 0, QUANTITY_OUT_OF_RANGE when all would go above the largest quantity.
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
  const faults = refused.map(({ index, entry }) => {
    const write = writes[index]!;
    return additionFault(write.petId, 'delta' in write ? write.delta : 0, entry!.item);
  });
  const code = faults.some((fault) => fault.code === ErrorCode.insufficientStock)
    ? ErrorCode.insufficientStock
    : ErrorCode.quantityOutOfRange;
  const count = writes.length > 1 ? `${faults.length} of ${writes.length} adjustments cannot be applied. ` : '';
  return { code, message: `${count}${faults.map((fault) => fault.sentence).join(' ')} ${NOTHING_WRITTEN}` };
}
