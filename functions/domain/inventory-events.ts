import { changeOf, type EntryImage } from './inventory-history.ts';
import { stockAlertOf, type StockAlert } from './low-stock.ts';
import type { ChangeEventData, InventoryChangedEvent, InventoryLowStockEvent, InventoryRestockedEvent, PetId } from './schemas.ts';
import { INVENTORY_CHANGED } from './vocabulary.ts';
import type { WebhookSubscription } from './webhooks.ts';

/**
 * What other systems hear of a change: one `inventory.changed` per history record, with its pet,
 * and, when the change crossed the pet's low-stock threshold, one `inventory.low_stock` or
 * `inventory.restocked` right after it (low-stock.ts). The change's data goes out as a webhook's
 * `data`, as an EventBridge event's `detail` and as a record of the change feed, so a receiver
 * handles all three alike and deduplicates by (petId, version); an alert by its id.
 */

/** A webhook's body, as the Standard Webhooks specification shapes it: a type, a time, the data. */
export type InventoryEventBody = InventoryChangedEvent | InventoryLowStockEvent | InventoryRestockedEvent;

/** One event as it goes out, to every webhook endpoint that takes its type and to the bus. */
export interface InventoryEvent {
  /** Its id (`webhook-id`): the same on every retry, on every endpoint and after a redrive. */
  id: string;
  petId: PetId;
  /**
   * Its place among the pet's events: the version of the change it announces, or half a version
   * after the change whose crossing it announces, so an alert follows its change.
   */
  position: number;
  body: InventoryEventBody;
}

/** Where the consumer of the inventory's stream hands each batch of events after recording the changes. */
export interface EventPublisher {
  /** Publishes each event at least once, a pet's in the order given; throwing leaves the batch to be handled again. */
  publish(events: readonly InventoryEvent[]): Promise<void>;
}

/** A change as announced (the history record with its petId, flat), and the webhook's body: their shapes are in schemas.ts. */
export type { ChangeEventData, InventoryChangedEvent };

export function inventoryChangedEvent(change: ChangeEventData): InventoryChangedEvent {
  return { type: INVENTORY_CHANGED, timestamp: change.occurredAt, data: change };
}

/**
 * The id of a change's event: derived from (petId, version), so it is the same on every retry,
 * on every endpoint and after a redrive, and a change delivered twice is recognisably one event.
 */
export function eventIdOf({ petId, version }: Pick<ChangeEventData, 'petId' | 'version'>): string {
  return `evt_inventory_${petId}_${version}`;
}

/** An alert's id: the crossing change's, and the alert's kind (`low_stock`, `restocked`). */
export function alertIdOf({ type, data }: Pick<StockAlert, 'type' | 'data'>): string {
  return `${eventIdOf(data)}_${type.slice(type.indexOf('.') + 1)}`;
}

/** A change's event. */
export function changedEvent(change: ChangeEventData): InventoryEvent {
  return { id: eventIdOf(change), petId: change.petId, position: change.version, body: inventoryChangedEvent(change) };
}

/** An alert's event: half a version after the change that crossed. */
export function alertEvent(alert: StockAlert): InventoryEvent {
  return {
    id: alertIdOf(alert),
    petId: alert.data.petId,
    position: alert.data.version + 0.5,
    body: { type: alert.type, timestamp: alert.occurredAt, data: alert.data } as InventoryLowStockEvent | InventoryRestockedEvent,
  };
}

/** The events a write made, from the entry before and after it: its change's, then the alert it raised, if any. */
export function eventsOfWrite(before: EntryImage | undefined, after: EntryImage | undefined): InventoryEvent[] {
  const change = changeOf(before, after);
  if (!change) return [];
  const alert = stockAlertOf(before, after);
  return [changedEvent(change), ...(alert ? [alertEvent(alert)] : [])];
}

/** Each event for each endpoint that takes its type, endpoint by endpoint, a pet's events in the order given. */
export function webhooksOf(
  subscriptions: readonly WebhookSubscription[],
  events: readonly InventoryEvent[],
): Array<{ url: string; event: InventoryEvent }> {
  return subscriptions.flatMap(({ url, eventTypes }) =>
    events.filter((event) => eventTypes.includes(event.body.type)).map((event) => ({ url, event })),
  );
}
