// Without zod, so that the Lambda bundles, which need these values but no schema library, load none;
// schemas.ts builds its enums and bounds from them, so this module imports nothing.

/** The largest stock count: int32, what clients in any language can hold. */
export const MAX_QUANTITY = 2_147_483_647;

/**
 * The most changes one batch applies: a DynamoDB transaction takes at most 100 actions, and a
 * batch is one transaction of an Update per change and the Put of its key's record.
 */
export const MAX_BATCH_CHANGES = 99;

/** What a pet's status may be (SPEC 2, PetStatus). */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const;

/** Why stock changed; the three uses SPEC section 1 names for the update. */
export const ADJUSTMENT_REASONS = ['arrival', 'return', 'adjustment'] as const;

/** The kinds of writer a change records; batch adjustments are `adjustment` too, each with the batch's request id. */
export const CHANGE_KINDS = ['set', 'compareAndSet', 'adjustment', 'import', 'seed', 'reserve', 'commit', 'release', 'expire'] as const;

/**
 * The most pets one reservation holds: a reservation is one transaction of an Update per pet, the
 * Put of its record and the Put of its Idempotency-Key's record, and a transaction takes at most 100 actions.
 */
export const MAX_RESERVATION_ITEMS = 98;

/** A reservation's time to live, in seconds: from 1 s to 7 days, 15 minutes when the request names none. */
export const RESERVATION_TTL_SECONDS = { min: 1, max: 7 * 24 * 60 * 60, default: 900 } as const;

/** The longest `reference` a reservation keeps: an order or cart id, not a document. */
export const MAX_RESERVATION_REFERENCE_LENGTH = 200;

/**
 * The most holds one pet's entry carries at once: each is about 60 bytes of the entry, so a
 * thousand keep it far below DynamoDB's 400 KB item limit.
 */
export const MAX_HOLDS_PER_PET = 1_000;

/** A reservation's statuses: it holds stock while active, and settles once, as sold, given back or run out. */
export const RESERVATION_STATUSES = ['active', 'committed', 'released', 'expired'] as const;

/** The type of the event that announces a change (a webhook's `type`, an EventBridge event's `detail-type`). */
export const INVENTORY_CHANGED = 'inventory.changed';
/** An accepted change took `available` from at least the pet's low-stock threshold to below it. */
export const INVENTORY_LOW_STOCK = 'inventory.low_stock';
/** An accepted change took `available` from below the pet's low-stock threshold back to at least it. */
export const INVENTORY_RESTOCKED = 'inventory.restocked';
/** Every event type a webhook endpoint may name, in the order the docs list them. */
export const INVENTORY_EVENT_TYPES = [INVENTORY_CHANGED, INVENTORY_LOW_STOCK, INVENTORY_RESTOCKED] as const;
export type InventoryEventType = (typeof INVENTORY_EVENT_TYPES)[number];

/** How long a change is kept in the history and the feed unless the stage says otherwise: 13 months. */
export const DEFAULT_HISTORY_RETENTION_DAYS = 396;

/** How many changes a page of a pet's history or of the change feed holds (`limit`). */
export const CHANGES_PAGE_LIMIT = { min: 1, max: 1_000, default: 100 } as const;
