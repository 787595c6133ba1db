import type { DynamoDBStreamEvent } from 'aws-lambda';
import { changesOfRecords, type InventoryStreamRecord } from '../adapters/dynamodb/inventory-stream.ts';
import type { HistoryRepository } from '../domain/inventory-history.ts';

/**
 * The inventory table's stream → each pet's history. A batch is recorded whole or fails whole:
 * the event source mapping then splits it and retries (recording an entry twice writes the same
 * item), and a record that still fails goes to the on-failure queue, where its alarm fires.
 */
export function createRecordInventoryChangesHandler({ history }: { history: Pick<HistoryRepository, 'record'> }) {
  return async (event: Pick<DynamoDBStreamEvent, 'Records'>): Promise<void> => {
    const changes = changesOfRecords(event.Records as InventoryStreamRecord[]);
    await history.record(changes);
  };
}
