import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  type BatchWriteCommandInput,
  type BatchWriteCommandOutput,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { expect } from 'vitest';
import { inventoryKey } from '../../functions/adapters/dynamodb/stored-inventory-item.ts';
import {
  LAST_CHANGE_ATTRIBUTE,
  VERSION_ATTRIBUTE,
  versionedChange,
  type VersionedChangeClauses,
} from '../../functions/adapters/dynamodb/versioned-change.ts';
import { listInventory, type InventoryRepository } from '../../functions/domain/inventory-service.ts';
import type { ChangeAttribution, ChangeKind } from '../../functions/domain/change-attribution.ts';
import type { InventoryItem, InventoryCount } from '../../functions/domain/schemas.ts';

/** Who the tests' own changes are by, where a test does not look at it. */
export const TEST_AUTHOR = { requestId: 'test-request', keyId: 'key_test' } as const;

export function testAttribution(kind: ChangeKind = 'set'): ChangeAttribution {
  return { kind, ...TEST_AUTHOR };
}

/** The clauses a write of this attribution carries, for a command matcher: the attribution exactly, at any instant. */
export function versionedChangeOf(attribution: ChangeAttribution): VersionedChangeClauses {
  const change = versionedChange(attribution);
  const occurredAt = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  return { ...change, values: { ...change.values, ':changeLast': { ...attribution, occurredAt } } };
}

/**
 * A large fixture, fast: each entry as its first versioned write stores it, put 25 to a call
 * (where the service's versioned writes take transactions, which DynamoDB Local runs about ten
 * times slower). For tests that read the inventory and none of its history.
 */
export async function putInventoryFixture(
  client: DynamoDBDocumentClient,
  tableName: string,
  items: readonly InventoryCount[],
): Promise<void> {
  const occurredAt = new Date().toISOString();
  const batches: InventoryCount[][] = [];
  for (let start = 0; start < items.length; start += 25) batches.push(items.slice(start, start + 25));
  const putBatch = async (batch: InventoryCount[]) => {
    let requests: NonNullable<BatchWriteCommandInput['RequestItems']>[string] | undefined = batch.map((item) => ({
      PutRequest: {
        Item: {
          ...inventoryKey(item.petId),
          ...item,
          [VERSION_ATTRIBUTE]: 1,
          [LAST_CHANGE_ATTRIBUTE]: { ...testAttribution('import'), occurredAt },
        },
      },
    }));
    while (requests?.length) {
      const written: BatchWriteCommandOutput = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
      requests = written.UnprocessedItems?.[tableName];
    }
  };
  const inFlight = 8;
  for (let start = 0; start < batches.length; start += inFlight) await Promise.all(batches.slice(start, start + inFlight).map(putBatch));
}

/** The whole listing's counts in one array: what the service streams, gathered for a comparison with what was written (nothing held). */
export async function allEntries(inventory: Pick<InventoryRepository, 'listAll'>): Promise<InventoryCount[]> {
  const entries: InventoryCount[] = [];
  for await (const batch of listInventory(inventory as InventoryRepository))
    entries.push(...batch.map(({ reserved: _reserved, available: _available, ...count }) => count));
  return entries;
}

/** `count` petIds from `from` upwards that all fall in `shard`: to fill one partition past its page size. */
export function idsInShard(shard: number, count: number, from = 1n): bigint[] {
  const ids: bigint[] = [];
  for (let petId = from; ids.length < count; petId += 1n) if (inventoryKey(petId).shard === shard) ids.push(petId);
  return ids;
}

/** Listings are streamed as failing sources: a listAll whose first read fails with `error`. */
export function failingListing(error: unknown): () => AsyncIterable<InventoryItem[]> {
  return async function* failing() {
    yield* [];
    throw error;
  };
}

/**
 * Runs `intercept` before every Query that continues a shard from a key (its second page and
 * later), in the client's own middleware: to fail a listing midway, or act between its pages.
 * Returns the removal.
 */
export function beforeLaterPages(client: DynamoDBDocumentClient, intercept: () => Promise<unknown>): () => void {
  const name = 'beforeLaterPages';
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'QueryCommand' && (args.input as { ExclusiveStartKey?: unknown }).ExclusiveStartKey) await intercept();
      return next(args);
    },
    { step: 'initialize', name },
  );
  return () => client.middlewareStack.remove(name);
}

/** A store fault as DynamoDB reports throttling. */
export function throttled(): Error {
  return Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ThrottlingException' });
}

/** A transaction DynamoDB cancelled, with one reason per action in order (`None` for an action that was not at fault). */
export function canceled(...reasons: Array<{ Code: string; Item?: Record<string, unknown> }>): TransactionCanceledException {
  return new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: reasons.map(({ Code, Item }) => ({ Code, ...(Item ? { Item: marshall(Item) } : {}) })),
  });
}
