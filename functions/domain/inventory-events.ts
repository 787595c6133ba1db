import type { ChangeEventData, InventoryChangedEvent } from './schemas.ts';
import { INVENTORY_CHANGED } from './vocabulary.ts';

/**
 * What other systems hear of a change: one event per history entry, with its pet. The same data
 * goes out as a webhook's `data`, as an EventBridge event's `detail` and as an entry of the
 * change feed, so a receiver handles all three alike and deduplicates by (petId, version).
 */

/** Where the consumer of the inventory's stream hands each batch of history entries after recording them. */
export interface ChangePublisher {
  /** Publishes each change at least once; throwing leaves the batch to be handled again. */
  publish(changes: readonly ChangeEventData[]): Promise<void>;
}

/** A change as announced (the history entry with its petId, flat), and the webhook's body: their shapes are in schemas.ts. */
export type { ChangeEventData, InventoryChangedEvent };

export function inventoryChangedEvent(change: ChangeEventData): InventoryChangedEvent {
  return { type: INVENTORY_CHANGED, timestamp: change.occurredAt, data: change };
}

/**
 * The event's id (`webhook-id`): derived from (petId, version), so it is the same on every retry,
 * on every endpoint and after a redrive, and a change delivered twice is recognisably one event.
 */
export function eventIdOf({ petId, version }: Pick<ChangeEventData, 'petId' | 'version'>): string {
  return `evt_inventory_${petId}_${version}`;
}
