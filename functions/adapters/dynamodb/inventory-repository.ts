import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, paginateQuery, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChangeAttribution } from '../../domain/change-attribution.ts';
import { byPetId, type InventoryRepository } from '../../domain/inventory-service.ts';
import { isLowOnStock } from '../../domain/low-stock.ts';
import { StoreUnavailableError } from '../../domain/errors.ts';
import { INVENTORY_ITEM_FIELDS } from '../../domain/inventory-item-fields.ts';
import type { InventoryCount, InventoryItem } from '../../domain/schemas.ts';
import { isThrottlingError } from '@smithy/service-error-classification';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  INVENTORY_PAGE_SIZE,
  INVENTORY_SHARDS,
  inventoryKey,
  LOW_STOCK_THRESHOLD_ATTRIBUTE,
  toInventoryItem,
  toVersionedItem,
} from './stored-inventory-item.ts';
import { callStore, inDomainTerms, updateIfConditionHolds } from './document-client.ts';
import { mergeSortedPages } from './sorted-merge.ts';
import { stockWriteInput } from './stock-write-input.ts';
import { inventoryTable } from './tables.ts';
import { versionedChange } from './versioned-change.ts';

/** Each field named through a placeholder: `status` is a reserved word, and a new field's name may be one too. */
const fieldNames = (fields: readonly string[]) => Object.fromEntries(fields.map((field) => [`#${field}`, field]));

/**
 * An entry's counted fields, as the entry stores each under its own name. The listing and one
 * entry's read take the whole item instead: what it answers depends on its holds, one attribute
 * each (stored-inventory-item.ts), which no projection can name in advance. DynamoDB bills a read
 * by the whole item's size whatever it projects, so only the bytes carried grow.
 */
export const INVENTORY_ITEM_PROJECTION = {
  ProjectionExpression: INVENTORY_ITEM_FIELDS.map((field) => `#${field}`).join(', '),
  ExpressionAttributeNames: fieldNames(INVENTORY_ITEM_FIELDS),
};

/** A Query of one shard's partition; `names` adds the expression names the rest of the input uses. */
function shardQuery(tableName: string, shard: number, names: Record<string, string> = {}) {
  return {
    TableName: tableName,
    KeyConditionExpression: '#shard = :shard',
    ExpressionAttributeNames: { ...names, '#shard': inventoryTable.partitionKey.name },
    ExpressionAttributeValues: { ':shard': shard },
  };
}

/**
 * Entries per transaction of an import or a seed: DynamoDB's most actions in one
 * TransactWriteItems. Each entry is a versioned UpdateItem (a batch write could only put whole
 * items, which would reset their versions); grouped in a transaction, a hundred of them are one
 * request and, on DynamoDB Local, one table lock and one SQLite commit instead of a hundred, where
 * the per-request work was most of the cost (bench/results.md, section 5). On AWS a transaction's
 * action costs 2 write units instead of 1.
 */
export const IMPORT_TRANSACTION_ENTRIES = 100;
/**
 * Transactions an import or a seed keeps in flight. DynamoDB Local applies one transaction of a
 * table at a time: a second in flight is read and checked while the first is written, and more
 * only contend for the lock (4 and 8 were slower than 1 and 2, bench/results.md, section 5). On
 * AWS they overlap whole, up to the table's capacity, where a throttled transaction backs off.
 */
export const IMPORT_TRANSACTIONS_IN_FLIGHT = 2;
/** Tries of one transaction while the store throttles it or another writer holds one of its entries, each after the SDK's own retries: with the backoff below, about 13 s. */
const THROTTLED_WRITE_TRIES = 8;
const THROTTLED_BACKOFF_BASE_MS = 50;
/** Cancellation reasons of a transaction that the same transaction may pass later: a concurrent write of one of its entries, or throttling. */
const RETRIED_CANCELLATIONS = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

/** A full-jitter backoff before try `attempt + 1`, so that many writers spread out instead of retrying in step. */
const backoff = (attempt: number) => sleep(Math.random() * THROTTLED_BACKOFF_BASE_MS * 2 ** attempt);

/** The fields a replacement writes: all but petId, which the key holds. */
const REPLACED_FIELDS = INVENTORY_ITEM_FIELDS.filter((field) => field !== inventoryTable.sortKey.name);

/**
 * The versioned change that creates the entry or replaces its fields but the key,
 * as an UpdateItem's input (alone, or as a transaction's Update action). Its condition refuses
 * the write when the entry already holds them all: writing it again records nothing. A field the
 * entry lacks (one added to InventoryItem after it was written) counts as different, since a
 * comparison with a missing attribute is false. Values are
 * stored as the domain holds them: the document client writes a bigint and a number alike as N.
 */
export function entryReplacement(tableName: string, item: InventoryCount, attribution: ChangeAttribution) {
  const change = versionedChange(attribution);
  return {
    TableName: tableName,
    Key: inventoryKey(item.petId),
    // A count replaced leaves what reservations hold as it is: available follows the count (stock-write-input.ts).
    UpdateExpression: `SET ${REPLACED_FIELDS.map((field) => `#${field} = :${field}`).join(', ')}, available = :quantity - if_not_exists(reserved, :zero), ${change.set}`,
    ConditionExpression: `attribute_not_exists(petId) OR ${REPLACED_FIELDS.map((field) => `attribute_not_exists(#${field}) OR #${field} <> :${field}`).join(' OR ')}`,
    ExpressionAttributeNames: { ...fieldNames(REPLACED_FIELDS), ...change.names },
    ExpressionAttributeValues: {
      ...Object.fromEntries(REPLACED_FIELDS.map((field) => [`:${field}`, item[field]])),
      ':zero': 0,
      ...change.values,
    },
  };
}

/**
 * Writes the entries as one transaction of versioned replacements. An entry whose condition
 * fails already holds what it would write: it is left out and the others are sent again at once.
 * A transaction the store throttles, or cancels because another writer changed one of its
 * entries meanwhile, is sent again after a backoff: each Update adds its version to whatever
 * the entry holds then, so the other writer's change keeps its own version and history record.
 */
async function replaceInOneTransaction(
  client: DynamoDBDocumentClient,
  tableName: string,
  group: readonly InventoryCount[],
  attribution: ChangeAttribution,
): Promise<void> {
  let pending = group;
  for (let backoffs = 0; pending.length > 0; ) {
    try {
      await client.send(
        new TransactWriteCommand({
          TransactItems: pending.map((item) => ({ Update: entryReplacement(tableName, item, attribution) })),
          // The SDK resends the same token when it retries this call: a retry after a lost answer applies nothing twice.
          ClientRequestToken: randomUUID(),
        }),
      );
      return;
    } catch (error) {
      const codes =
        error instanceof TransactionCanceledException
          ? (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None')
          : undefined;
      // An entry whose condition failed already holds what it would write: it is left out of every later try.
      const unwritten = pending.filter((_item, index) => codes?.[index] !== 'ConditionalCheckFailed');
      const faults = codes?.filter((code) => code !== 'None' && code !== 'ConditionalCheckFailed') ?? [];
      if (codes && faults.length === 0 && unwritten.length < pending.length) {
        pending = unwritten;
        continue;
      }
      const passesLater = codes
        ? faults.length > 0 && faults.every((code) => RETRIED_CANCELLATIONS.has(code))
        : error instanceof Error && isThrottlingError(error as Parameters<typeof isThrottlingError>[0]);
      if (!passesLater) throw error;
      backoffs += 1;
      if (backoffs >= THROTTLED_WRITE_TRIES) throw new StoreUnavailableError({ cause: error });
      pending = unwritten;
      await backoff(backoffs);
    }
  }
}

/**
 * The reorder report's filter. DynamoDB keeps only the entries with a threshold (it filters after
 * reading, so the report costs the listing's read units); whether one is below it is decided here,
 * by isLowOnStock (domain/low-stock.ts) on what the entry answers now, as a hold that expired
 * without its expiry recorded holds nothing.
 */
const HAS_THRESHOLD = {
  FilterExpression: 'attribute_exists(#threshold)',
  ExpressionAttributeNames: { '#threshold': LOW_STOCK_THRESHOLD_ATTRIBUTE },
};

function isBelowItsThreshold(stored: Record<string, unknown>, item: InventoryItem): boolean {
  return isLowOnStock(item, Number(String(stored[LOW_STOCK_THRESHOLD_ATTRIBUTE])));
}

/** One shard's entries in petId order, a page at a time (a page may hold none when filtered). */
async function* shardPages(
  client: DynamoDBDocumentClient,
  tableName: string,
  shard: number,
  { lowStockOnly = false }: { lowStockOnly?: boolean } = {},
): AsyncGenerator<InventoryItem[]> {
  const pages = paginateQuery(
    { client, pageSize: INVENTORY_PAGE_SIZE },
    {
      ...shardQuery(tableName, shard, lowStockOnly ? HAS_THRESHOLD.ExpressionAttributeNames : {}),
      ...(lowStockOnly ? { FilterExpression: HAS_THRESHOLD.FilterExpression } : {}),
      // A pet written before the listing began is always in it, whatever replica answers.
      ConsistentRead: true,
    },
  );
  try {
    for await (const page of pages) {
      const stored = page.Items ?? [];
      const items = stored.map((entry) => toInventoryItem(entry));
      yield lowStockOnly ? items.filter((item, index) => isBelowItsThreshold(stored[index]!, item)) : items;
    }
  } catch (error) {
    throw inDomainTerms(error);
  }
}

export function createInventoryRepository(
  client: DynamoDBDocumentClient,
  tableName: string,
  /** Transactions putMany keeps in flight: IMPORT_TRANSACTIONS_IN_FLIGHT unless a benchmark compares others. */
  transactionsInFlight = IMPORT_TRANSACTIONS_IN_FLIGHT,
): InventoryRepository {
  return {
    listAll: (options) =>
      mergeSortedPages(
        INVENTORY_SHARDS.map((shard) => shardPages(client, tableName, shard, options)),
        byPetId,
        INVENTORY_PAGE_SIZE,
      ),

    putMany: (items, attribution, onWritten) =>
      callStore(async () => {
        // Two actions on one item cancel a transaction, and two writes of one pet in flight would race.
        if (new Set(items.map((item) => item.petId)).size < items.length) throw new Error('putMany takes each petId at most once.');
        const groups = Array.from({ length: Math.ceil(items.length / IMPORT_TRANSACTION_ENTRIES) }, (_, index) =>
          items.slice(index * IMPORT_TRANSACTION_ENTRIES, (index + 1) * IMPORT_TRANSACTION_ENTRIES),
        );
        let next = 0;
        let written = 0;
        let failed = false;
        const writer = async () => {
          while (next < groups.length && !failed) {
            const group = groups[next++]!;
            try {
              await replaceInOneTransaction(client, tableName, group, attribution);
            } catch (error) {
              // The other writers start no further transaction: the import ends with this error, not minutes later.
              failed = true;
              throw error;
            }
            written += group.length;
            onWritten?.(written);
          }
        };
        // Settled, not raced: putMany returns once no transaction of it is in flight, whatever failed.
        const outcomes = await Promise.allSettled(Array.from({ length: Math.min(transactionsInFlight, groups.length) }, writer));
        const failure = outcomes.find((outcome) => outcome.status === 'rejected');
        if (failure) throw failure.reason;
      }),

    write: (write) =>
      callStore(async () => {
        const result = await updateIfConditionHolds(client, { ...stockWriteInput(tableName, write), ReturnValues: 'ALL_NEW' });
        if (result.held) return { written: toVersionedItem(result.attributes) };
        return { refused: result.current ? toVersionedItem(result.current) : undefined };
      }),

    get: (petId, options) =>
      callStore(async () => {
        const { Item } = await client.send(
          new GetCommand({
            TableName: tableName,
            Key: inventoryKey(petId),
            ...(options?.consistent ? { ConsistentRead: true } : {}),
          }),
        );
        return Item ? toVersionedItem(Item) : undefined;
      }),
  };
}

/** Whether any pet has an entry: one item's Query per shard, never a Scan. */
export async function inventoryHasEntries(client: DynamoDBDocumentClient, tableName: string): Promise<boolean> {
  const found = await Promise.all(
    INVENTORY_SHARDS.map(async (shard) => {
      const { Items } = await client.send(new QueryCommand({ ...shardQuery(tableName, shard), ProjectionExpression: '#shard', Limit: 1 }));
      return (Items?.length ?? 0) > 0;
    }),
  );
  return found.includes(true);
}
