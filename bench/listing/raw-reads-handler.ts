/**
 * The baseline of section 3: the listing's reads and nothing else. A Lambda-style function,
 * bundled and run like the listing's own (a fresh process, the same store, the same client),
 * that reads every entry through the service's repository (the shards' ordered Queries,
 * merged) without handler, plan limits, serialization or response stream; with `lowStockOnly`
 * in its event, the reorder report's reads (the same Queries, filtered). It answers what it
 * measured: entries, Queries, read units (DynamoDB's ConsumedCapacity) and the time to the
 * first merged batch, which no listing can beat: every shard's first page.
 */
import { createDocumentClient } from '../../functions/adapters/dynamodb/document-client.ts';
import { createInventoryRepository } from '../../functions/adapters/dynamodb/inventory-repository.ts';
import { readConfig } from '../../functions/config.ts';
import { readUnits, recordStoreCalls } from '../consumed-capacity.ts';

export interface RawReads {
  entries: number;
  queries: number;
  readUnits: number;
  firstBatchMs: number;
}

const config = readConfig();
const client = createDocumentClient(config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint } : {});
const calls = recordStoreCalls([client]);
const inventory = createInventoryRepository(client, config.inventoryTable);

export const handler = async (event: { lowStockOnly?: boolean }) => {
  calls.length = 0;
  const startedAt = performance.now();
  let firstBatchMs: number | undefined;
  let entries = 0;
  for await (const batch of inventory.listAll({ lowStockOnly: event.lowStockOnly === true })) {
    firstBatchMs ??= performance.now() - startedAt;
    entries += batch.length;
  }
  const measured: RawReads = {
    entries,
    queries: calls.length,
    readUnits: readUnits(calls),
    firstBatchMs: firstBatchMs ?? performance.now() - startedAt,
  };
  return { statusCode: 200, body: JSON.stringify(measured) };
};
