import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { ChangeFeedRepository } from '../domain/change-feed.ts';
import { eventsOfWrite, type EventPublisher } from '../domain/inventory-events.ts';
import { changeOf, type EntryWrite, type HistoryRepository } from '../domain/inventory-history.ts';

export interface RecordInventoryChangesDependencies {
  /** The stream's records as the writes they tell of (adapters/dynamodb/inventory-stream.ts): each image decoded once. */
  writesOf: (records: DynamoDBStreamEvent['Records']) => EntryWrite[];
  history: Pick<HistoryRepository, 'record'>;
  changeFeed: Pick<ChangeFeedRepository, 'append'>;
  /** Who else hears of each change and each alert it raised: EventBridge and the webhook queue on AWS, the webhook outbox locally. */
  publishers?: readonly EventPublisher[];
}

/**
 * The inventory table's stream → each pet's history, then the change feed, then the events (each
 * change's, and the low-stock alert a change raised, right after it). A
 * batch is handled whole or fails whole: the event source mapping then splits it and retries
 * (recording an entry or feeding a change twice changes nothing; an event may go out twice, and
 * receivers deduplicate by its id), and a record that still fails goes to the on-failure queue,
 * where its alarm fires. The history comes first: nothing is announced that it does not hold.
 */
export function createRecordInventoryChangesHandler({
  writesOf,
  history,
  changeFeed,
  publishers = [],
}: RecordInventoryChangesDependencies) {
  return async (event: Pick<DynamoDBStreamEvent, 'Records'>): Promise<void> => {
    const writes = writesOf(event.Records);
    const changes = writes.flatMap(({ before, after }) => changeOf(before, after) ?? []);
    if (changes.length === 0) return;
    await history.record(changes);
    await changeFeed.append(changes);
    // Decided from each record's own images: a batch handled again raises the same alerts, with the same ids.
    const events = writes.flatMap(({ before, after }) => eventsOfWrite(before, after));
    await Promise.all(publishers.map((publisher) => publisher.publish(events)));
  };
}
