import { createHash } from 'node:crypto';
import { backoff, type Deadline, mayStartRound } from './contention.ts';
import { ApiError, ContendedWriteError, ErrorCode } from './errors.ts';
import type { ReservationExpiry, ReservationRecord } from './reservations.ts';
import type { InventoryItem, InventoryUpdate, PetAdjustment, PetId, Reservation, ReservationRequest } from './schemas.ts';
import {
  adjustmentWrite,
  batchRefusal,
  type ChangeAuthor,
  expiredHolds,
  holdWrite,
  meaningOfRefusal,
  type Refusal,
  type RefusedWrite,
  type StockWrite,
  updateWrite,
  type VersionedItem,
} from './stock-writes.ts';
import { toReservation } from './reservations.ts';
import { newReservationId } from './reservation-ids.ts';
import { MAX_BATCH_CHANGES, RESERVATION_TTL_SECONDS } from './vocabulary.ts';

/**
 * Stock changes applied exactly once per Idempotency-Key: relative ones (arrivals, returns,
 * corrections), and the set or compare-and-set of a PATCH sent with a key. The change and the
 * key's record are written in one transaction: no crash, timeout or retry can apply a change
 * twice, or record one that was not applied. A relative change is an atomic addition within the
 * quantity's bounds, so concurrent changes of one pet neither lose each other nor have to retry
 * against each other.
 */

/** How long a key's outcome is kept and replayed. */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;

/**
 * A request sent with an Idempotency-Key, and its author: the X-Request-Id recorded with each
 * change it makes, and the API key's public id, which scopes the Idempotency-Key (one API key's
 * Idempotency-Keys are invisible to another).
 */
interface IdempotentRequest extends ChangeAuthor {
  idempotencyKey: string;
  /** When the request starts no more rounds that meet other transactions (contention.ts); none: MAX_ROUNDS alone bounds them. */
  deadline?: Deadline | undefined;
}

export type AdjustmentRequest = IdempotentRequest & PetAdjustment;

/** A PATCH sent with an Idempotency-Key: its body and the versions of its If-Match. */
export interface KeyedUpdateRequest extends IdempotentRequest {
  petId: PetId;
  update: InventoryUpdate;
  versions?: readonly number[] | undefined;
}

/** Changes of several pets, applied all or none under one Idempotency-Key. */
export interface BatchAdjustmentRequest extends IdempotentRequest {
  changes: readonly PetAdjustment[];
}

/**
 * What an adjustment answered: the entry after it with its version, its ETag (absent in answers
 * recorded before versions existed), or a refusal. Both are replayed.
 */
export type AdjustmentOutcome = { item: InventoryItem; version?: number } | { error: Refusal };
/** What a batch answered: the entries after it, in the order of its changes, or a refusal. */
export type BatchAdjustmentOutcome = { items: InventoryItem[] } | { error: Refusal };
/** What a reservation answered: the reservation made, or a refusal. */
export type ReservationOutcome = { reservation: Reservation } | { error: Refusal };
/** What a key's record holds as its answer. */
export type RecordedOutcome = AdjustmentOutcome | BatchAdjustmentOutcome | ReservationOutcome;

/** A cart's request to hold stock, under one Idempotency-Key. */
export interface ReserveRequest extends IdempotentRequest {
  request: ReservationRequest;
}

export interface IdempotencyRecord {
  recordId: string;
  /** Identifies the request the key was first used for: its operation, and each change's petId, delta and reason. */
  requestHash: string;
  /**
   * What the first request answered. Undefined only between a change being applied and its
   * answer being recorded: the first request is finishing, or died before it answered.
   */
  outcome: RecordedOutcome | undefined;
  /** Unix seconds; a record past it counts as gone, whenever the store's TTL gets to deleting it. */
  expiresAt: number;
}

export type ApplyResult =
  | { applied: true }
  /** A live record holds the key: this request is a duplicate. */
  | { applied: false; recordedAlready: true }
  /**
   * The bounds, a set's preconditions or the entries' existence refused changes: each refused
   * change by its position, with its entry as the refusal saw it (undefined: no entry).
   */
  | { applied: false; refused: RefusedWrite[] }
  /** Another transaction held the entry or the record at that moment; nothing was written. */
  | { applied: false; conflict: true };

/** What adjustments need from storage; the DynamoDB adapter implements it. */
export interface IdempotentWriteRepository {
  /** The key's record, read strongly consistent. */
  findRecord(recordId: string): Promise<IdempotencyRecord | undefined>;
  /** The pets' entries, read strongly consistent, in the order of petIds (undefined: no entry). */
  findEntries(petIds: readonly PetId[]): Promise<(VersionedItem | undefined)[]>;
  /**
   * One transaction: each write (see StockWrite), and the key recorded as applied (unless a live
   * record holds it). All or none.
   */
  apply(transaction: {
    writes: readonly StockWrite[];
    /** The key's record; with its answer when the answer does not depend on the entries after the writes. */
    record: Omit<IdempotencyRecord, 'outcome'> & { outcome?: RecordedOutcome };
    nowSeconds: number;
    /** A reservation the writes hold stock for, created with them (unless one with its id exists). */
    reservation?: ReservationRecord;
  }): Promise<ApplyResult>;
  /** Records the answer of applied changes, unless one is recorded already; returns the recorded answer. */
  recordAnswer(recordId: string, outcome: RecordedOutcome): Promise<RecordedOutcome>;
  /** Records a refusal as the key's outcome; false when a live record holds the key already. */
  recordRefusal(record: IdempotencyRecord, nowSeconds: number): Promise<boolean>;
}

export interface KeyedWriteResult<Outcome extends RecordedOutcome = AdjustmentOutcome> {
  outcome: Outcome;
  /** True when the outcome is an earlier request's, answered again. */
  replayed: boolean;
}

export class IdempotencyKeyReusedError extends ApiError {
  /** `differences` says how a request can differ from the first: `another pet, delta or reason`. */
  constructor(idempotencyKey: string, differences: string) {
    super(
      ErrorCode.idempotencyKeyReused,
      `Idempotency-Key ${idempotencyKey} was already used for a different request (${differences}) within ${IDEMPOTENCY_WINDOW_SECONDS / 3600} hours; use a new key for a new change.`,
    );
  }
}

const authorOf = ({ requestId, keyId }: IdempotentRequest): ChangeAuthor => ({ requestId, keyId });

/** A single write's outcome: its refusal, or (a set to the quantity already stored: nothing needed writing) the entry as it is, answered 200. */
function singleOutcome(meaning: ReturnType<typeof meaningOfRefusal>): AdjustmentOutcome {
  return 'refusal' in meaning ? { error: meaning.refusal } : { item: meaning.unchanged.item, version: meaning.unchanged.version };
}

const changeText = ({ petId, delta, reason }: PetAdjustment) => `${petId}\n${delta}\n${reason}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** A request with one key, in the idempotentWriter's terms: what it changes, and how its applied and refused outcomes read. */
interface KeyedChanges<Outcome extends RecordedOutcome> extends IdempotentRequest {
  requestHash: string;
  writes: readonly StockWrite[];
  /** How a request with this key differs from another, for IDEMPOTENCY_KEY_REUSED's message. */
  differences: string;
  applied(entries: VersionedItem[]): Outcome;
  refused(refused: RefusedWrite[]): Outcome;
  /** The reservation the writes are holds of; its answer is recorded with the key in the same transaction. */
  reservation?: ReservationRecord;
}

/**
 * 400 for the first pet a list names twice (a transaction takes one action per item, and a sum is
 * what the client means): `fault` says where, in the request's own words.
 */
function refuseRepeatedPets(list: readonly { petId: PetId }[], fault: (petId: PetId, index: number, first: number) => string): void {
  const firstIndexOf = new Map<PetId, number>();
  list.forEach(({ petId }, index) => {
    const first = firstIndexOf.get(petId);
    if (first !== undefined) throw new ApiError(ErrorCode.invalidBody, fault(petId, index, first));
    firstIndexOf.set(petId, index);
  });
}

export class IdempotentWriter {
  constructor(
    private readonly repository: IdempotentWriteRepository,
    private readonly now: () => number = Date.now,
    private readonly wait: (round: number) => Promise<void> = backoff,
    /**
     * Records the expiry of reservations whose holds the stored figures still count: a removal or
     * a hold they refused is written again after it. Without it such a write is refused until a
     * sweep has run.
     */
    private readonly expiry?: Pick<ReservationExpiry, 'expire'>,
  ) {}

  /**
   * Holds each pet's stock for a cart, all or none, once per Idempotency-Key: the holds, the
   * reservation's record and the key's record in one transaction. Each pet at most once.
   */
  async reserve({ request, ...author }: ReserveRequest): Promise<KeyedWriteResult<ReservationOutcome>> {
    const { items, reference } = request;
    const ttlSeconds = request.ttlSeconds ?? RESERVATION_TTL_SECONDS.default;
    refuseRepeatedPets(
      items,
      (petId, index, first) =>
        `items.${index}.petId: pet ${petId} is reserved at items.${first} already; send one item per pet with the sum of its quantities`,
    );
    const createdAt = this.now();
    const reservation: ReservationRecord = {
      reservationId: newReservationId(),
      status: 'active',
      items: items.map(({ petId, quantity }) => ({ petId, quantity })),
      expiresAt: createdAt + ttlSeconds * 1000,
      ...(reference === undefined ? {} : { reference }),
      createdAt,
      ...authorOf(author),
      idempotencyKey: author.idempotencyKey,
    };
    const attribution = {
      kind: 'reserve' as const,
      ...authorOf(author),
      idempotencyKey: author.idempotencyKey,
      reservationId: reservation.reservationId,
      ...(reference === undefined ? {} : { reference }),
    };
    const writes = reservation.items.map(({ petId, quantity }) =>
      holdWrite(petId, { reservationId: reservation.reservationId, quantity, expiresAt: reservation.expiresAt }, attribution),
    );
    return this.applyOnce<ReservationOutcome>({
      ...author,
      // The same cart sent again is the same reservation; its time to live counts from the first request.
      requestHash: sha256(
        `reserve\n${items.map(({ petId, quantity }) => `${petId}\n${quantity}`).join('\n')}\n${ttlSeconds}\n${reference ?? ''}`,
      ),
      writes,
      reservation,
      differences: 'other items, ttlSeconds or reference',
      applied: () => ({ reservation: toReservation(reservation, createdAt) }),
      refused: (refused) => ({ error: batchRefusal(writes, refused) }),
    });
  }

  async adjust(request: AdjustmentRequest): Promise<KeyedWriteResult<AdjustmentOutcome>> {
    if (request.delta === 0) throw new ApiError(ErrorCode.invalidBody, 'delta: must not be 0: an adjustment changes the stock');
    const write = adjustmentWrite(request, authorOf(request), request.idempotencyKey);
    return this.applyOnce<AdjustmentOutcome>({
      ...request,
      requestHash: sha256(changeText(request)),
      writes: [write],
      differences: 'another pet, delta or reason',
      applied: ([entry]) => ({ item: entry!.item, version: entry!.version }),
      refused: ([refused]) => singleOutcome(meaningOfRefusal(write, refused!.entry)),
    });
  }

  /**
   * A PATCH sent with an Idempotency-Key: the set or compare-and-set (under its If-Match) written
   * once, in one transaction with the key's record; its answer, the entry or the refusal
   * (PET_NOT_FOUND, QUANTITY_CHANGED, PRECONDITION_FAILED), is what every request with the key answers. The history record carries the key.
   */
  async update(request: KeyedUpdateRequest): Promise<KeyedWriteResult<AdjustmentOutcome>> {
    const { petId, update, versions, idempotencyKey } = request;
    const write = updateWrite(petId, update, authorOf(request), versions, idempotencyKey);
    return this.applyOnce<AdjustmentOutcome>({
      ...request,
      // The operation is part of the hash: an adjustment's key is not an update's.
      requestHash: sha256(`update\n${petId}\n${update.quantity}\n${update.changeFromQuantity ?? ''}\n${versions?.join(',') ?? ''}`),
      writes: [write],
      differences: 'another pet, quantity, changeFromQuantity or If-Match',
      applied: ([entry]) => ({ item: entry!.item, version: entry!.version }),
      refused: ([refused]) => singleOutcome(meaningOfRefusal(write, refused!.entry)),
    });
  }

  /** Every change or none, in one transaction with the key's record; each pet at most once. */
  async adjustBatch(request: BatchAdjustmentRequest): Promise<KeyedWriteResult<BatchAdjustmentOutcome>> {
    const { changes } = request;
    if (changes.length < 1 || changes.length > MAX_BATCH_CHANGES)
      throw new ApiError(ErrorCode.invalidBody, `adjustments: must hold from 1 to ${MAX_BATCH_CHANGES} adjustments, not ${changes.length}`);
    changes.forEach(({ delta }, index) => {
      if (delta === 0)
        throw new ApiError(ErrorCode.invalidBody, `adjustments.${index}.delta: must not be 0: an adjustment changes the stock`);
    });
    refuseRepeatedPets(
      changes,
      (petId, index, first) =>
        `adjustments.${index}.petId: pet ${petId} is adjusted at adjustments.${first} already; send one adjustment per pet with the sum of its deltas`,
    );
    const writes = changes.map((change) => adjustmentWrite(change, authorOf(request), request.idempotencyKey));
    return this.applyOnce<BatchAdjustmentOutcome>({
      ...request,
      // The operation is part of the hash: a key used for a single adjustment is not a batch's key.
      requestHash: sha256(`batch\n${changes.map(changeText).join('\n')}`),
      writes,
      refused: (refused) => ({ error: batchRefusal(writes, refused) }),
      differences: 'other adjustments, or another order of them',
      // A batch's answer names several entries, so it carries no single version (no ETag).
      applied: (entries) => ({ items: entries.map((entry) => entry.item) }),
    });
  }

  private async applyOnce<Outcome extends RecordedOutcome>(request: KeyedChanges<Outcome>): Promise<KeyedWriteResult<Outcome>> {
    const { writes, requestHash } = request;
    const recordId = `${request.keyId}#${request.idempotencyKey}`;
    // Each round ends in an answer, but for a transaction conflict and a duplicate recording first.
    for (let round = 0; mayStartRound(round, request.deadline); round += 1) {
      const nowSeconds = Math.floor(this.now() / 1000);
      const record = await this.repository.findRecord(recordId);
      if (record && record.expiresAt > nowSeconds) {
        if (record.requestHash !== requestHash) throw new IdempotencyKeyReusedError(request.idempotencyKey, request.differences);
        // The hash matched, so the record holds this kind of request's outcome.
        return { outcome: (record.outcome as Outcome | undefined) ?? (await this.answerApplied(request, recordId)), replayed: true };
      }
      const expiresAt = nowSeconds + IDEMPOTENCY_WINDOW_SECONDS;
      // A reservation's answer is known before it is written: recorded with it, a request that dies after the write leaves its answer.
      const known = request.reservation ? request.applied([]) : undefined;
      const result = await this.repository.apply({
        writes,
        record: { recordId, requestHash, expiresAt, ...(known ? { outcome: known } : {}) },
        nowSeconds,
        ...(request.reservation ? { reservation: request.reservation } : {}),
      });
      if (result.applied) return { outcome: known ?? (await this.answerApplied(request, recordId)), replayed: false };
      if ('refused' in result) {
        // The stored figures count holds until their expiry is recorded: recorded now, the writes may pass.
        // A set never depends on holds: its refusal is its own.
        const expired = result.refused.flatMap(({ index, entry }) => ('set' in writes[index]! ? [] : expiredHolds(entry, this.now())));
        if (expired.length > 0 && this.expiry) {
          await this.expiry.expire(
            expired.map((hold) => hold.reservationId),
            request.deadline,
          );
          continue;
        }
        const outcome = request.refused(result.refused);
        // Recorded unless a duplicate recorded first: the next round then answers what it recorded.
        if (await this.repository.recordRefusal({ recordId, requestHash, outcome, expiresAt }, nowSeconds))
          return { outcome, replayed: false };
      }
      if ('conflict' in result) await this.wait(round);
    }
    // Every round's transaction was refused for a conflict: this request wrote nothing.
    throw new ContendedWriteError(`The change sent with Idempotency-Key ${request.idempotencyKey}`);
  }

  /**
   * The entries right after the change (they hold these deltas, and may hold concurrent ones),
   * recorded as the answer before it is sent, so that every request with this key answers the same.
   */
  private async answerApplied<Outcome extends RecordedOutcome>(request: KeyedChanges<Outcome>, recordId: string): Promise<Outcome> {
    const petIds = request.writes.map((write) => write.petId);
    const entries = await this.repository.findEntries(petIds);
    const missing = petIds.filter((_, index) => !entries[index]);
    if (missing.length > 0) throw new Error(`the entries of pets ${missing.join(', ')} vanished after an adjustment was applied to them`);
    return (await this.repository.recordAnswer(recordId, request.applied(entries as VersionedItem[]))) as Outcome;
  }
}
