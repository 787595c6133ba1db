import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChangeAttribution } from './change-attribution.ts';
import { ApiError, BadRequestError, errorBody, ErrorCode, StoreUnavailableError } from './errors.ts';
import { MAX_QUANTITY } from './quantity.ts';
import type { AdjustmentReason, ErrorBody, InventoryItem, PetId } from './schemas.ts';

/**
 * Relative stock changes (arrivals, returns, corrections), each applied exactly once per
 * Idempotency-Key. The change and the key's record are written in one transaction: no crash,
 * timeout or retry can apply a change twice, or record one that was not applied. The change is
 * an atomic addition within the quantity's bounds, so concurrent changes of one pet neither
 * lose each other nor have to retry against each other.
 */

/** How long a key's outcome is kept and replayed. */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;

export interface AdjustmentRequest {
  /** The API key's public id: keys of one API key are invisible to another. */
  callerId: string;
  /** The X-Request-Id of the request, recorded with the change it makes. */
  requestId: string;
  idempotencyKey: string;
  petId: PetId;
  delta: number;
  reason: AdjustmentReason;
}

/** What an adjustment answered: the entry after it, or an error that wrote nothing. Both are replayed. */
export type AdjustmentOutcome = { item: InventoryItem } | { error: ErrorBody };

export interface IdempotencyRecord {
  recordId: string;
  /** Identifies the request the key was first used for: petId, delta and reason. */
  requestHash: string;
  /**
   * What the first request answered. Undefined only between a change being applied and its
   * answer being recorded: the first request is finishing, or died before it answered.
   */
  outcome: AdjustmentOutcome | undefined;
  /** Unix seconds; a record past it counts as gone, whenever the store's TTL gets to deleting it. */
  expiresAt: number;
}

export type ApplyResult =
  | { applied: true }
  /** A live record holds the key: this request is a duplicate. */
  | { applied: false; recordedAlready: true }
  /** The bounds or the entry's existence refused the change; `entry` is the entry as the refusal saw it. */
  | { applied: false; refusedBy: InventoryItem | undefined }
  /** Another transaction held the entry or the record at that moment; nothing was written. */
  | { applied: false; conflict: true };

/** What adjustments need from storage; the DynamoDB adapter implements it. */
export interface AdjustmentRepository {
  /** The key's record, read strongly consistent. */
  findRecord(recordId: string): Promise<IdempotencyRecord | undefined>;
  /** The pet's entry, read strongly consistent. */
  findEntry(petId: PetId): Promise<InventoryItem | undefined>;
  /**
   * One transaction: adds delta to the entry's quantity while it stays within 0 and the largest
   * quantity, and records the key as applied (unless a live record holds it). Both or neither.
   */
  apply(change: {
    petId: PetId;
    delta: number;
    record: Omit<IdempotencyRecord, 'outcome'>;
    attribution: ChangeAttribution;
    nowSeconds: number;
  }): Promise<ApplyResult>;
  /** Records the answer of an applied change, unless one is recorded already; returns the recorded answer. */
  recordAnswer(recordId: string, outcome: AdjustmentOutcome): Promise<AdjustmentOutcome>;
  /** Records a refusal as the key's outcome; false when a live record holds the key already. */
  recordRefusal(record: IdempotencyRecord, nowSeconds: number): Promise<boolean>;
}

export interface AdjustmentResult {
  outcome: AdjustmentOutcome;
  /** True when the outcome is an earlier request's, answered again. */
  replayed: boolean;
}

export class IdempotencyKeyReusedError extends ApiError {
  constructor(idempotencyKey: string) {
    super(
      422,
      ErrorCode.idempotencyKeyReused,
      `Idempotency-Key ${idempotencyKey} was already used for a different request (another pet, delta or reason) within ${IDEMPOTENCY_WINDOW_SECONDS / 3600} hours; use a new key for a new adjustment.`,
    );
  }
}

function attributionOf({ requestId, callerId, reason, idempotencyKey }: AdjustmentRequest): ChangeAttribution {
  return { kind: 'adjustment', requestId, keyId: callerId, reason, idempotencyKey };
}

function hashOf({ petId, delta, reason }: AdjustmentRequest): string {
  return createHash('sha256').update(`${petId}\n${delta}\n${reason}`).digest('base64url');
}

/** Why a change was refused, from the entry as the refusal saw it. */
function refusal(request: AdjustmentRequest, entry: InventoryItem | undefined): AdjustmentOutcome {
  const { petId, delta } = request;
  if (!entry) return { error: errorBody(404, ErrorCode.petNotFound, `No inventory entry exists for pet ${petId}.`) };
  if (entry.quantity + delta < 0) {
    return {
      error: errorBody(
        409,
        ErrorCode.insufficientStock,
        `Pet ${petId} has ${entry.quantity} in stock; a delta of ${delta} would take it below 0. Nothing was written.`,
      ),
    };
  }
  return {
    error: errorBody(
      409,
      ErrorCode.quantityOutOfRange,
      `Pet ${petId} has ${entry.quantity} in stock; a delta of ${delta} would take it above ${MAX_QUANTITY}. Nothing was written.`,
    ),
  };
}

/** Rounds of a request that meets transaction conflicts or its own duplicates; each round ends in an answer but for those. */
const MAX_ROUNDS = 20;
const BACKOFF_CAP_MS = 200;

/** Full jitter: transactions that met on one entry spread out instead of meeting again in step. */
function backoff(round: number): Promise<void> {
  return sleep(Math.random() * Math.min(BACKOFF_CAP_MS, 10 * 2 ** round));
}

export class InventoryAdjuster {
  constructor(
    private readonly repository: AdjustmentRepository,
    private readonly now: () => number = Date.now,
    private readonly wait: (round: number) => Promise<void> = backoff,
  ) {}

  async adjust(request: AdjustmentRequest): Promise<AdjustmentResult> {
    if (request.delta === 0) throw new BadRequestError(ErrorCode.invalidBody, 'delta: must not be 0: an adjustment changes the stock');
    const recordId = `${request.callerId}#${request.idempotencyKey}`;
    const requestHash = hashOf(request);
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const nowSeconds = Math.floor(this.now() / 1000);
      const record = await this.repository.findRecord(recordId);
      if (record && record.expiresAt > nowSeconds) {
        if (record.requestHash !== requestHash) throw new IdempotencyKeyReusedError(request.idempotencyKey);
        return { outcome: record.outcome ?? (await this.answerApplied(request.petId, recordId)), replayed: true };
      }
      const expiresAt = nowSeconds + IDEMPOTENCY_WINDOW_SECONDS;
      const result = await this.repository.apply({
        petId: request.petId,
        delta: request.delta,
        record: { recordId, requestHash, expiresAt },
        attribution: attributionOf(request),
        nowSeconds,
      });
      if (result.applied) return { outcome: await this.answerApplied(request.petId, recordId), replayed: false };
      if ('refusedBy' in result) {
        const outcome = refusal(request, result.refusedBy);
        // Recorded unless a duplicate recorded first: the next round then answers what it recorded.
        if (await this.repository.recordRefusal({ recordId, requestHash, outcome, expiresAt }, nowSeconds))
          return { outcome, replayed: false };
      }
      if ('conflict' in result) await this.wait(round);
    }
    throw new StoreUnavailableError({ cause: new Error(`adjustment ${recordId} met other transactions ${MAX_ROUNDS} times`) });
  }

  /**
   * The entry right after the change (it holds this delta, and may hold concurrent ones), recorded
   * as the answer before it is sent, so that every request with this key answers the same.
   */
  private async answerApplied(petId: PetId, recordId: string): Promise<AdjustmentOutcome> {
    const entry = await this.repository.findEntry(petId);
    if (!entry) throw new Error(`the entry of pet ${petId} vanished after an adjustment was applied to it`);
    return this.repository.recordAnswer(recordId, { item: entry });
  }
}
