import { PutEventsCommand, type EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { EventPublisher } from '../../domain/inventory-events.ts';
import { toJson } from '../../int64-json.ts';

/** The events' source on the stage's bus: rules match `source` and `detail-type`. */
export const INVENTORY_EVENT_SOURCE = 'petstore.inventory';
/** PutEvents' largest batch. */
const ENTRIES_PER_CALL = 10;

/**
 * Each event on the stage's EventBridge bus, `detail-type` its type (`inventory.changed`,
 * `inventory.low_stock`, `inventory.restocked`) and `detail` the webhook's `data`, so any team
 * routes the events it wants to SQS, Lambda or Step Functions with a rule of its own.
 */
export function createEventBusPublisher(client: EventBridgeClient, eventBusName: string): EventPublisher {
  return {
    async publish(events) {
      for (let start = 0; start < events.length; start += ENTRIES_PER_CALL) {
        const entries = events.slice(start, start + ENTRIES_PER_CALL).map(({ body }) => ({
          EventBusName: eventBusName,
          Source: INVENTORY_EVENT_SOURCE,
          DetailType: body.type,
          Time: new Date(body.timestamp),
          Detail: toJson(body.data),
        }));
        const { FailedEntryCount = 0, Entries = [] } = await client.send(new PutEventsCommand({ Entries: entries }));
        // The batch fails whole and is handled again: an event already put goes out twice, and rules' targets deduplicate by (petId, version).
        if (FailedEntryCount > 0) {
          const failed = Entries.find((entry) => entry.ErrorCode);
          throw new Error(
            `EventBridge refused ${FailedEntryCount} of ${entries.length} events (${failed?.ErrorCode}: ${failed?.ErrorMessage})`,
          );
        }
      }
    },
  };
}
