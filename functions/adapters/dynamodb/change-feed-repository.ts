import { TransactionCanceledException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient, type NumberValue } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChangeFeedRepository } from '../../domain/change-feed.ts';
import type { ChangeEventData } from '../../domain/inventory-events.ts';
import type { InventoryChange } from '../../domain/inventory-history.ts';
import { callStore } from './document-client.ts';

/** The partition that holds the feed's entries and, at seq 0, its sequence item. */
export const CHANGE_FEED_PARTITION = 'changes';
const SEQUENCE_KEY = { feed: CHANGE_FEED_PARTITION, seq: 0 } as const;
/**
 * Changes per transaction: each takes an entry and a marker, and the sequence item one more,
 * within TransactWriteItems' 100 actions.
 */
export const FEED_CHANGES_PER_TRANSACTION = 49;
/** Attempts of one transaction before the append fails (and the consumer's batch is retried whole). */
const APPEND_ATTEMPTS = 50;
const MAX_BACKOFF_MS = 200;
/** Besides a moved sequence, why a transaction fails when another writer got there first. */
const CONTENTION = new Set(['TransactionConflict', 'ThrottlingError']);

/** The marker that a change is in the feed: its own partition, so a pet's markers never crowd the feed's. */
const markerKey = ({ petId, version }: ChangeEventData) => ({ feed: `pet#${petId}`, seq: version });

interface StoredFeedRecord {
  seq: NumberValue;
  petId: NumberValue;
  /** The history record, as JSON text: it goes out as it came in. */
  change: string;
}

function numberIn(item: Record<string, AttributeValue> | undefined, name: string): number | undefined {
  const value = item?.[name]?.N;
  return value === undefined ? undefined : Number(value);
}

/**
 * The feed on DynamoDB. Each append is one TransactWriteItems: the sequence item moves from the
 * value the writer last saw to that plus n, conditioned on still holding it, with the n entries
 * numbered in between and a marker per change. Two consumers appending at once: one transaction
 * fails the condition (or conflicts) and is sent again with the sequence as it now stands.
 */
export function createChangeFeedRepository(client: DynamoDBDocumentClient, tableName: string, retentionDays: number): ChangeFeedRepository {
  /** The sequence as this writer last saw it: a guess that a failed condition corrects. */
  let lastSeen = 0;

  async function appendTransaction(changes: ChangeEventData[]): Promise<void> {
    for (let attempt = 1; changes.length > 0; attempt += 1) {
      if (attempt > APPEND_ATTEMPTS) throw new Error(`the change feed's sequence stayed contended for ${APPEND_ATTEMPTS} attempts`);
      const expected = lastSeen;
      const expiresAt = Math.floor(Date.now() / 1000) + retentionDays * 86_400;
      try {
        await client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: SEQUENCE_KEY,
                  UpdateExpression: 'SET #last = :next',
                  ConditionExpression: expected === 0 ? 'attribute_not_exists(#last)' : '#last = :expected',
                  ExpressionAttributeNames: { '#last': 'last' },
                  ExpressionAttributeValues: { ':next': expected + changes.length, ...(expected === 0 ? {} : { ':expected': expected }) },
                  ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
                },
              },
              ...changes.map(({ petId, ...change }, index) => ({
                Put: {
                  TableName: tableName,
                  Item: {
                    feed: CHANGE_FEED_PARTITION,
                    seq: expected + 1 + index,
                    petId,
                    change: JSON.stringify(change),
                    expiresAt,
                  },
                },
              })),
              ...changes.map((change, index) => ({
                Put: {
                  TableName: tableName,
                  Item: { ...markerKey(change), feedSeq: expected + 1 + index, expiresAt },
                  ConditionExpression: 'attribute_not_exists(feed)',
                },
              })),
            ],
            ClientRequestToken: randomUUID(),
          }),
        );
        lastSeen = expected + changes.length;
        return;
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const reasons = error.CancellationReasons ?? [];
        if (reasons[0]?.Code === 'ConditionalCheckFailed') lastSeen = numberIn(reasons[0].Item, 'last') ?? 0;
        // Changes whose marker exists are in the feed already (a batch handled again): they are left out.
        const markers = reasons.slice(1 + changes.length);
        const fed = new Set(markers.flatMap((reason, index) => (reason.Code === 'ConditionalCheckFailed' ? [index] : [])));
        changes = changes.filter((_change, index) => !fed.has(index));
        const contended = reasons[0]?.Code === 'ConditionalCheckFailed' || reasons.some((reason) => CONTENTION.has(reason.Code ?? ''));
        if (!contended && fed.size === 0) throw error;
        // Full jitter, growing with the attempts: writers that collided spread out instead of colliding again.
        if (contended) await sleep(Math.random() * Math.min(2 ** attempt, MAX_BACKOFF_MS));
      }
    }
  }

  /** The number of the last change in the feed, 0 before the first. */
  async function sequence(): Promise<number> {
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'feed = :feed AND seq = :sequence',
        ExpressionAttributeValues: { ':feed': SEQUENCE_KEY.feed, ':sequence': SEQUENCE_KEY.seq },
        ConsistentRead: true,
      }),
    );
    return Number((Items[0] as { last?: NumberValue } | undefined)?.last?.toString() ?? 0);
  }

  return {
    append: (changes) =>
      callStore(async () => {
        const unique = [...new Map(changes.map((change) => [`${change.petId}:${change.version}`, change])).values()];
        for (let start = 0; start < unique.length; start += FEED_CHANGES_PER_TRANSACTION)
          await appendTransaction(unique.slice(start, start + FEED_CHANGES_PER_TRANSACTION));
      }),

    page: ({ afterSeq, limit }) =>
      callStore(async () => {
        // From the cursor's own entry on, when there is a cursor: found, it shows the feed has
        // reached the cursor, at no extra call (a poller at the head finds it on every poll).
        const from = Math.max(afterSeq, 1);
        const { Items = [] } = await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'feed = :feed AND seq >= :from',
            ExpressionAttributeValues: { ':feed': CHANGE_FEED_PARTITION, ':from': from },
            // Strongly consistent: every transaction answered before this read is in it, and with it every lower seq.
            ConsistentRead: true,
            Limit: afterSeq === 0 ? limit : limit + 1,
          }),
        );
        const read = (Items as unknown as StoredFeedRecord[]).map((item) => ({
          seq: Number(item.seq.toString()),
          data: { petId: BigInt(item.petId.toString()), ...(JSON.parse(item.change) as InventoryChange) },
        }));
        const entries = read.filter(({ seq }) => seq > afterSeq).slice(0, limit);
        // Neither the cursor's entry (expired) nor a later one: only the sequence says how far the feed stands.
        const reached = afterSeq === 0 || read.length > 0 || (await sequence()) >= afterSeq;
        return { entries, reached };
      }),
  };
}
