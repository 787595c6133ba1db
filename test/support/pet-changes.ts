import { changedEvent, type ChangeEventData, type InventoryEvent } from '../../functions/domain/inventory-events.ts';
import { INVENTORY_EVENT_TYPES } from '../../functions/domain/vocabulary.ts';
import type { WebhookSubscription } from '../../functions/domain/webhooks.ts';

/** A pet's history record as the stream consumer derives it, with its pet: an arrival of one, version by version. */
export function petChange(petId: bigint, version: number, occurredAt = new Date().toISOString()): ChangeEventData {
  return {
    petId,
    version,
    occurredAt,
    kind: 'adjustment',
    quantityBefore: version - 1,
    quantityAfter: version,
    delta: 1,
    status: 'available',
    reason: 'arrival',
    reservedBefore: 0,
    reservedAfter: 0,
    reservationId: null,
    reference: null,
    idempotencyKey: `arrival-${version}`,
    requestId: `request-${petId}-${version}`,
    keyId: 'key_test',
  };
}

/** Endpoints that take every event type, as a WEBHOOK_URL without types sets them. */
export function takingEverything(...urls: string[]): WebhookSubscription[] {
  return urls.map((url) => ({ url, eventTypes: INVENTORY_EVENT_TYPES }));
}

/** The changes' events, as the stream consumer hands them to the publishers (no alert among them). */
export function eventsOf(changes: readonly ChangeEventData[]): InventoryEvent[] {
  return changes.map(changedEvent);
}
