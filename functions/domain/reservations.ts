import { backoff, type Deadline, mayStartRound } from './contention.ts';
import { TOOL_KEY_IDS, type ChangeAttribution } from './change-attribution.ts';
import { ApiError, ContendedWriteError, ErrorCode, StoreUnavailableError } from './errors.ts';
import { reservationNotFound } from './reservation-ids.ts';
import type { CommittedReservation, InventoryItem, PetId, Reservation, ReservationItem, ReservationStatus } from './schemas.ts';
import { batchRefusal, type ChangeAuthor, type RefusedWrite, type StockWrite, settleWrite, type VersionedItem } from './stock-writes.ts';

/**
 * Reservations: stock held for a cart until its expiresAt, then sold (commit), given back
 * (release) or run out (expire). Every one of these is a StockWrite of each pet it holds (see
 * stock-writes.ts), written in one transaction with the reservation's record, so a hold, its
 * record and its history records are never apart. A reservation is made by the IdempotentWriter,
 * once per Idempotency-Key (idempotent-writes.ts); commit and release need no key, because a
 * reservation settles once: settling it again answers what it became.
 */

/** A reservation as it is stored: what the API answers of it, in the store's terms, and who made it. */
export interface ReservationRecord {
  reservationId: string;
  status: ReservationStatus;
  items: ReservationItem[];
  /** Unix milliseconds: the holds hold nothing from this moment on. */
  expiresAt: number;
  reference?: string;
  /** Unix milliseconds. */
  createdAt: number;
  /** Unix milliseconds: when it was committed, released or its expiry recorded. */
  settledAt?: number;
  keyId: string;
  requestId: string;
  idempotencyKey: string;
}

/** What a settling transaction met. */
export type SettleResult =
  | { settled: true }
  /** The record was no longer active, or the time had crossed its expiresAt: nothing was written; read it again. */
  | { stale: true }
  /** Pets whose writes were refused, with their entries as the refusal saw them; nothing was written. */
  | { refused: RefusedWrite[] }
  /** Another transaction held one of its items at that moment; nothing was written. */
  | { conflict: true };

/** What reservations need from storage; the DynamoDB adapter implements it. */
export interface ReservationRepository {
  /** The reservation's record, read strongly consistent. */
  find(reservationId: string): Promise<ReservationRecord | undefined>;
  /**
   * One transaction: the record from active to `status` (committed and released only before its
   * expiresAt, expired only from it on), and each pet's write.
   */
  settle(settling: {
    reservationId: string;
    status: Exclude<ReservationStatus, 'active'>;
    writes: readonly StockWrite[];
    nowMs: number;
  }): Promise<SettleResult>;
  /** The pets' entries, read strongly consistent, in the order of petIds (undefined: no entry). */
  findEntries(petIds: readonly PetId[]): Promise<(VersionedItem | undefined)[]>;
  /** Up to `limit` ids of active reservations whose expiresAt has come by `nowMs`, earliest first. */
  due(nowMs: number, limit: number): Promise<string[]>;
}

/** The status a reservation has at `nowMs`: an active one past its expiresAt is expired, whether or not its expiry is recorded. */
export function statusAt(record: ReservationRecord, nowMs: number): ReservationStatus {
  return record.status === 'active' && record.expiresAt <= nowMs ? 'expired' : record.status;
}

/** A reservation as the API answers it at `nowMs`. */
export function toReservation(record: ReservationRecord, nowMs: number): Reservation {
  const status = statusAt(record, nowMs);
  const settledAt = record.settledAt ?? (status === 'expired' ? record.expiresAt : undefined);
  return {
    reservationId: record.reservationId,
    status,
    items: record.items,
    expiresAt: new Date(record.expiresAt).toISOString(),
    reference: record.reference ?? null,
    createdAt: new Date(record.createdAt).toISOString(),
    settledAt: settledAt === undefined ? null : new Date(settledAt).toISOString(),
  };
}

/** Why a reservation cannot be settled as asked, once it has settled otherwise. */
function settledOtherwise(record: ReservationRecord, status: ReservationStatus): ApiError {
  const { reservationId } = record;
  const codes = {
    expired: ErrorCode.reservationExpired,
    released: ErrorCode.reservationReleased,
    committed: ErrorCode.reservationCommitted,
  } as const;
  const what = {
    expired: `expired at ${new Date(record.expiresAt).toISOString()}: it holds nothing any more; reserve again`,
    released: 'was released: it holds nothing any more; reserve again',
    committed: 'was committed: its stock is sold',
  } as const;
  if (status === 'active') throw new Error(`reservation ${reservationId} is active`);
  return new ApiError(codes[status], `Reservation ${reservationId} ${what[status]}. Nothing was written.`);
}

/** Active reservations expired per round of a sweep. */
export const SWEEP_BATCH = 100;

/** The writes that end a reservation's holds: sold, or given back. */
function settleWrites(record: ReservationRecord, sold: boolean, attribution: ChangeAttribution): StockWrite[] {
  return record.items.map(({ petId, quantity }) =>
    settleWrite(petId, { reservationId: record.reservationId, quantity }, sold, attribution),
  );
}

/** The attribution of a change made for a reservation. */
function reservationAttribution(
  kind: ChangeAttribution['kind'],
  author: ChangeAuthor,
  record: Pick<ReservationRecord, 'reservationId' | 'reference'>,
): ChangeAttribution {
  return {
    kind,
    ...author,
    reservationId: record.reservationId,
    ...(record.reference === undefined ? {} : { reference: record.reference }),
  };
}

/**
 * Records expiries: an active reservation whose expiresAt has come is set expired and each of its
 * holds given back, one change of each pet. Exactness does not wait for it (reads, holds and
 * removals see a hold gone at its expiresAt): it makes the expiry last, and lets a write that the
 * stored figures refused be written.
 */
export class ReservationExpiry {
  constructor(
    private readonly repository: ReservationRepository,
    private readonly now: () => number = Date.now,
    private readonly wait: (round: number) => Promise<void> = backoff,
  ) {}

  /**
   * Records the expiry of each reservation that is due; one that is not (or settled meanwhile) is
   * left as it is. `deadline`: the request's that needs it (contention.ts).
   */
  async expire(reservationIds: readonly string[], deadline?: Deadline): Promise<void> {
    for (const reservationId of new Set(reservationIds)) await this.expireOne(reservationId, deadline);
  }

  /** Records the expiry of every active reservation due by now, a batch at a time; returns how many it expired. */
  async sweep(): Promise<number> {
    let expired = 0;
    for (;;) {
      const due = await this.repository.due(this.now(), SWEEP_BATCH);
      await this.expire(due);
      expired += due.length;
      if (due.length < SWEEP_BATCH) return expired;
    }
  }

  private async expireOne(reservationId: string, deadline: Deadline | undefined): Promise<void> {
    for (let round = 0; mayStartRound(round, deadline); round += 1) {
      const record = await this.repository.find(reservationId);
      const nowMs = this.now();
      if (record?.status !== 'active' || record.expiresAt > nowMs) return;
      // No request asks for an expiry: each is a change of its own, under the system's name.
      const author = { requestId: crypto.randomUUID(), keyId: TOOL_KEY_IDS.reservationExpiry };
      const writes = settleWrites(record, false, reservationAttribution('expire', author, record));
      const result = await this.repository.settle({ reservationId, status: 'expired', writes, nowMs });
      if ('settled' in result || 'stale' in result) return;
      if ('refused' in result)
        throw new Error(
          `the holds of reservation ${reservationId} are not on the entries of pets ${result.refused.map(({ index }) => writes[index]!.petId).join(', ')}`,
        );
      await this.wait(round);
    }
    throw new ContendedWriteError(`The expiry of reservation ${reservationId}`);
  }
}

/** Reads, commits and releases reservations; making one is the IdempotentWriter's (reserve). */
export class Reservations {
  constructor(
    private readonly repository: ReservationRepository,
    private readonly expiry: ReservationExpiry,
    private readonly now: () => number = Date.now,
    private readonly wait: (round: number) => Promise<void> = backoff,
  ) {}

  /** The reservation as it stands now: expired from its expiresAt on, whether or not its expiry is recorded. */
  async get(reservationId: string): Promise<Reservation> {
    const record = await this.repository.find(reservationId);
    if (!record) throw reservationNotFound(reservationId);
    return toReservation(record, this.now());
  }

  /**
   * The sale: each pet's stock and its hold go down by what was held, in one transaction with the
   * record, before expiresAt. Committed already: the same answer, nothing taken. Expired or released: 409.
   * `deadline`: when the request starts no more rounds that meet other transactions (contention.ts).
   */
  async commit(reservationId: string, author: ChangeAuthor, deadline?: Deadline): Promise<CommittedReservation> {
    const record = await this.settle(reservationId, 'committed', author, deadline);
    const entries = await this.repository.findEntries(record.items.map(({ petId }) => petId));
    return {
      reservation: toReservation(record, this.now()),
      items: entries.map((entry, index) => {
        if (!entry)
          throw new Error(`the entry of pet ${record.items[index]!.petId} vanished after reservation ${reservationId} was committed`);
        return entry.item satisfies InventoryItem;
      }),
    };
  }

  /**
   * Gives the holds back before expiresAt. Released already, or expired (it holds nothing either
   * way): the reservation as it is. Committed: 409, the stock is sold.
   */
  async release(reservationId: string, author: ChangeAuthor, deadline?: Deadline): Promise<Reservation> {
    try {
      return toReservation(await this.settle(reservationId, 'released', author, deadline), this.now());
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.reservationExpired) {
        const record = await this.repository.find(reservationId);
        if (record) return toReservation(record, this.now());
      }
      throw error;
    }
  }

  /**
   * What a reservation's record says of settling it as `status`: settled so already (the record),
   * still to settle (active), or an error: gone, or settled otherwise (an expiry not yet recorded
   * is recorded now, so the holds are given back for good).
   */
  private async standing(
    reservationId: string,
    status: 'committed' | 'released',
    deadline: Deadline | undefined,
  ): Promise<{ settled: ReservationRecord } | { active: ReservationRecord }> {
    const record = await this.repository.find(reservationId);
    if (!record) throw reservationNotFound(reservationId);
    const current = statusAt(record, this.now());
    if (current === status) return { settled: record };
    if (current === 'active') return { active: record };
    if (record.status === 'active') await this.expiry.expire([reservationId], deadline);
    throw settledOtherwise(record, current);
  }

  /**
   * Settles an active reservation as `status`, or answers the record already so settled; an expired
   * one is recorded so and refused. A settling is the same whoever makes it, so when this request
   * cannot tell what it wrote (out of rounds or of time, or the store did not answer for its
   * transaction), it reads what the reservation became and answers that: 503 only while the
   * reservation is still active, which this request then did not settle (ContendedWriteError), or
   * may yet have (StoreUnavailableError: the store did not answer for its last transaction).
   */
  private async settle(
    reservationId: string,
    status: 'committed' | 'released',
    author: ChangeAuthor,
    deadline: Deadline | undefined,
  ): Promise<ReservationRecord> {
    let unanswered: StoreUnavailableError | undefined;
    for (let round = 0; mayStartRound(round, deadline); round += 1) {
      const standing = await this.standing(reservationId, status, deadline);
      if ('settled' in standing) return standing.settled;
      const record = standing.active;
      const nowMs = this.now();
      const writes = settleWrites(
        record,
        status === 'committed',
        reservationAttribution(status === 'committed' ? 'commit' : 'release', author, record),
      );
      let result: SettleResult;
      try {
        result = await this.repository.settle({ reservationId, status, writes, nowMs });
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error;
        unanswered = error;
        break;
      }
      if ('settled' in result) return { ...record, status, settledAt: nowMs };
      if ('refused' in result) {
        const { code, message } = batchRefusal(writes, result.refused);
        throw new ApiError(code, message);
      }
      if ('conflict' in result) await this.wait(round);
    }
    const standing = await this.standing(reservationId, status, deadline);
    if ('settled' in standing) return standing.settled;
    throw unanswered ?? new ContendedWriteError(`The settling of reservation ${reservationId}`);
  }
}
