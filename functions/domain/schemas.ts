import { z } from 'zod';
import { MAX_INT64 } from './pet-id.ts';
import {
  ADJUSTMENT_REASONS,
  CHANGE_KINDS,
  INVENTORY_CHANGED,
  INVENTORY_LOW_STOCK,
  INVENTORY_RESTOCKED,
  MAX_BATCH_CHANGES,
  MAX_QUANTITY,
  MAX_RESERVATION_ITEMS,
  MAX_RESERVATION_REFERENCE_LENGTH,
  RESERVATION_STATUSES,
  PET_STATUSES,
  RESERVATION_TTL_SECONDS,
} from './vocabulary.ts';

/**
 * The spec's objects, once. Types, request validation and the OpenAPI document all derive
 * from these schemas, so they cannot drift apart.
 */

/** petId is int64; bigint keeps ids above 2^53 exact where a JS number would round them. */
export const PetId = z.bigint().min(1n).max(MAX_INT64);
export type PetId = z.infer<typeof PetId>;

export const PetStatus = z.enum(PET_STATUSES);
export type PetStatus = z.infer<typeof PetStatus>;

export const Quantity = z.int().min(0).max(MAX_QUANTITY);

/**
 * What a count sets: the spec's InventoryItem fields, the entry's stock on hand and status. The
 * inventory file (import, export, seed) holds these: what reservations hold is not counted, it is
 * the API's to change.
 */
export const InventoryCount = z.strictObject({
  petId: PetId,
  quantity: Quantity,
  status: PetStatus,
});
export type InventoryCount = z.infer<typeof InventoryCount>;

/**
 * An entry as the API answers it: the count, and beside it what active reservations hold of it
 * (`reserved`, holds past their expiresAt excluded at the moment of the read) and what is left to
 * promise (`available`: quantity - reserved, never below 0, as a count set below what is held leaves it).
 */
export const InventoryItem = z.strictObject({
  ...InventoryCount.shape,
  reserved: Quantity,
  available: Quantity,
});
export type InventoryItem = z.infer<typeof InventoryItem>;

export const InventoryUpdate = z.strictObject({
  quantity: Quantity,
  /** Compare-and-set: write only if the stored quantity is this one (or already `quantity`). */
  changeFromQuantity: Quantity.optional(),
});
export type InventoryUpdate = z.infer<typeof InventoryUpdate>;

export const AdjustmentReason = z.enum(ADJUSTMENT_REASONS);
export type AdjustmentReason = z.infer<typeof AdjustmentReason>;

/**
 * A change of stock that cannot on its own leave the quantity's range. It is never 0, which the
 * idempotentWriter refuses (idempotent-writes.ts): a union of the two signs would say so here, but
 * its JSON Schema (anyOf) would not compile to validators that describe faults as zod does.
 */
export const Delta = z.int().min(-MAX_QUANTITY).max(MAX_QUANTITY);

export const InventoryAdjustment = z.strictObject({
  delta: Delta,
  reason: AdjustmentReason,
});
export type InventoryAdjustment = z.infer<typeof InventoryAdjustment>;

/** One change of a pet's entry, as its history keeps it (see inventory-history.ts). */
export const InventoryChange = z.strictObject({
  version: z.int().min(1),
  occurredAt: z.iso.datetime({ precision: 3 }),
  kind: z.enum(CHANGE_KINDS),
  // quantityBefore and reason are written out, not Quantity.nullable() and AdjustmentReason.nullable(): a nullable reference to a
  // named schema loses its null in the OpenAPI document.
  quantityBefore: z.int().min(0).max(MAX_QUANTITY).nullable(),
  quantityAfter: Quantity,
  delta: z.int().min(-MAX_QUANTITY).max(MAX_QUANTITY),
  status: PetStatus,
  reason: z.enum(AdjustmentReason.options).nullable(),
  /** What reservations held of the entry before and after the change, expired holds included until their expiry is recorded. */
  reservedBefore: z.int().min(0).max(MAX_QUANTITY),
  reservedAfter: z.int().min(0).max(MAX_QUANTITY),
  /** The reservation a reserve, commit, release or expire changed the entry for; null for other kinds. */
  reservationId: z.string().nullable(),
  /** That reservation's reference, as its creator gave it; null when it gave none, and for other kinds. */
  reference: z.string().nullable(),
  idempotencyKey: z.string().nullable(),
  requestId: z.string(),
  keyId: z.string(),
});
export type InventoryChange = z.infer<typeof InventoryChange>;

export const ChangesPage = z.strictObject({
  changes: z.array(InventoryChange),
  nextCursor: z.string().nullable(),
});
export type ChangesPage = z.infer<typeof ChangesPage>;

/**
 * A history record with its pet, flat: a record of the change feed, a webhook's `data` and an
 * EventBridge event's `detail` alike (inventory-events.ts), so a receiver handles all three alike.
 */
export const ChangeEventData = z.strictObject({ petId: PetId, ...InventoryChange.shape });
export type ChangeEventData = z.infer<typeof ChangeEventData>;

/** A page of the change feed (change-feed.ts): `nextCursor` is always a cursor, so a poller resumes from it for ever. */
export const ChangeFeedPage = z.strictObject({
  changes: z.array(ChangeEventData),
  nextCursor: z.string(),
});
export type ChangeFeedPage = z.infer<typeof ChangeFeedPage>;

/**
 * The body of a webhook, as the Standard Webhooks specification shapes it: a type, a time (the
 * change's occurredAt, so a retry carries the same body), the data.
 */
const webhookBody = <Type extends string, Data extends z.ZodType>(type: Type, data: Data) =>
  z.strictObject({ type: z.literal(type), timestamp: z.iso.datetime({ precision: 3 }), data });

export const InventoryChangedEvent = webhookBody(INVENTORY_CHANGED, ChangeEventData);
export type InventoryChangedEvent = z.infer<typeof InventoryChangedEvent>;

/** PUT /inventory/{petId}/low-stock-threshold's body: below this many available, the pet is low on stock. */
export const LowStockThresholdUpdate = z.strictObject({
  threshold: Quantity,
});
export type LowStockThresholdUpdate = z.infer<typeof LowStockThresholdUpdate>;

/** A pet's low-stock threshold, as the threshold's operations answer it. */
export const LowStockThreshold = z.strictObject({ petId: PetId, threshold: Quantity });
export type LowStockThreshold = z.infer<typeof LowStockThreshold>;

/**
 * What a stock alert says (low-stock.ts): the pet, its threshold, the stock the crossing change
 * left, and that change's version, so a receiver finds it in the pet's history.
 */
export const StockAlertData = z.strictObject({
  petId: PetId,
  threshold: Quantity,
  available: Quantity,
  quantity: Quantity,
  reserved: Quantity,
  version: z.int().min(1),
});
export type StockAlertData = z.infer<typeof StockAlertData>;

/** The body of an `inventory.low_stock` webhook; `timestamp` is the crossing change's occurredAt. */
export const InventoryLowStockEvent = webhookBody(INVENTORY_LOW_STOCK, StockAlertData);
export type InventoryLowStockEvent = z.infer<typeof InventoryLowStockEvent>;

/** The body of an `inventory.restocked` webhook; `timestamp` is the crossing change's occurredAt. */
export const InventoryRestockedEvent = webhookBody(INVENTORY_RESTOCKED, StockAlertData);
export type InventoryRestockedEvent = z.infer<typeof InventoryRestockedEvent>;

/** One adjustment of a batch: a single adjustment's body, and the pet it changes. */
export const PetAdjustment = z.strictObject({ petId: PetId, ...InventoryAdjustment.shape });
export type PetAdjustment = z.infer<typeof PetAdjustment>;

/** Changes of several pets, applied all or none; each pet at most once (the idempotentWriter checks, as zod cannot say it). */
export const InventoryAdjustmentBatch = z.strictObject({
  adjustments: z.array(PetAdjustment).min(1).max(MAX_BATCH_CHANGES),
});
export type InventoryAdjustmentBatch = z.infer<typeof InventoryAdjustmentBatch>;

/** The entries a batch left, in the order of its adjustments. */
export const AdjustedInventoryItems = z.strictObject({ items: z.array(InventoryItem) });

/** One pet of a reservation, and how many of it are held. */
export const ReservationItem = z.strictObject({
  petId: PetId,
  quantity: z.int().min(1).max(MAX_QUANTITY),
});
export type ReservationItem = z.infer<typeof ReservationItem>;

/** A cart's request to hold stock; each pet at most once (the reservations' rules check, as zod cannot say it). */
export const ReservationRequest = z.strictObject({
  items: z.array(ReservationItem).min(1).max(MAX_RESERVATION_ITEMS),
  ttlSeconds: z.int().min(RESERVATION_TTL_SECONDS.min).max(RESERVATION_TTL_SECONDS.max).optional(),
  reference: z.string().min(1).max(MAX_RESERVATION_REFERENCE_LENGTH).optional(),
});
export type ReservationRequest = z.infer<typeof ReservationRequest>;

export const ReservationStatus = z.enum(RESERVATION_STATUSES);
export type ReservationStatus = z.infer<typeof ReservationStatus>;

/** Stock held for a cart until expiresAt, and what became of it. */
export const Reservation = z.strictObject({
  reservationId: z.string(),
  status: ReservationStatus,
  items: z.array(ReservationItem),
  expiresAt: z.iso.datetime({ precision: 3 }),
  reference: z.string().nullable(),
  createdAt: z.iso.datetime({ precision: 3 }),
  /** When it was committed, released or expired; null while active. */
  settledAt: z.iso.datetime({ precision: 3 }).nullable(),
});
export type Reservation = z.infer<typeof Reservation>;

/** A commit's answer: the reservation, and the entries it left, in the order of its items. */
export const CommittedReservation = z.strictObject({
  reservation: Reservation,
  items: z.array(InventoryItem),
});
export type CommittedReservation = z.infer<typeof CommittedReservation>;

/**
 * What this service knows of a pet: the inventory table holds its id and status and nothing
 * else, so that is all GET /pets/{petId} returns. The field names are the classic Petstore
 * Pet's (`id`, `status`), so clients of the old operation read them where they always did.
 */
export const Pet = z.strictObject({
  id: PetId,
  status: PetStatus,
});
export type Pet = z.infer<typeof Pet>;

export const ErrorBody = z.strictObject({
  code: z.string(),
  message: z.string(),
  status: z.int(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
