import {
  DeleteCommand,
  paginateScan,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { toJson } from '../functions/int64-json.ts';
import { takes, type InventoryEvent } from '../functions/domain/inventory-events.ts';
import type { WebhookSubscription } from '../functions/domain/webhooks.ts';

/**
 * npm start's pending webhook deliveries, in a table of the local store: they are written before
 * the stream position that produced them is saved, so a restart or a kill -9 loses none. One item
 * per event and endpoint; a queue is one pet at one endpoint, its items in the order of the pet's
 * events (sort key `version`: a change's version, an alert half a version after its change), and
 * only its oldest item is attempted, so a pet's events reach each receiver in order. A dead
 * letter is moved out of its queue (to `dead <queue>`), so the queue's oldest item is always
 * its oldest pending delivery, read as one item however many died before it.
 *
 * Each queue with a pending delivery also has a due entry (version 0): when its oldest pending
 * delivery is next attempted (`dueAt`) and its endpoint. Only due entries carry `dueAt`, so the
 * due index (per endpoint, sorted by `dueAt`) holds one item per queue and nothing else: the
 * sender finds what is due with one query per endpoint that reads only what is due, and a
 * backlog waiting for its next attempt costs it nothing. The due entry sorts first in its queue,
 * so one query reads it with the queue's oldest deliveries: a delivery costs the sender that
 * query and the delivery's delete, and, when it was the queue's last, the due entry's.
 */
export const webhookOutboxTable = {
  partitionKey: { name: 'queue', type: 'S' },
  sortKey: { name: 'version', type: 'N' },
  dueIndex: { indexName: 'byEndpointDue', partitionKey: { name: 'url', type: 'S' }, sortKey: { name: 'dueAt', type: 'N' } },
} as const;

/** The sort key of a queue's due entry: versions start at 1. */
const DUE_ENTRY_VERSION = 0;

export interface OutboxDelivery {
  /** `<petId> <url>` (queueOf): one pet at one endpoint; a dead letter's is `dead <petId> <url>`. */
  queue: string;
  /** The event's place among its pet's (InventoryEvent.position): a change's version, an alert half a version after it. */
  version: number;
  url: string;
  petId: string;
  eventId: string;
  /** The exact body every attempt sends. */
  body: string;
  /** When the change was queued (ms): deliveries are retried for the policy's retryForMs after it. */
  queuedAt: number;
  attempts: number;
  state: 'pending' | 'dead';
  lastFailure?: string;
  deadLetteredAt?: number;
}

/**
 * What a queue holds for the sender: its oldest pending delivery when due, or when that falls due.
 * `lastOf` is set when the delivery was the queue's only one as read: the count of additions its
 * due entry had then, so that delivering it removes the entry too unless a delivery was added since.
 */
export type QueueHead = DueHead | { dueAt: number };
export interface DueHead {
  due: OutboxDelivery;
  lastOf?: number;
}

export interface WebhookOutbox {
  /** Queues each event for each endpoint that takes its type; an event queued already is left as it is. */
  enqueue(subscriptions: readonly WebhookSubscription[], events: readonly InventoryEvent[], nowMs: number): Promise<void>;
  /** Up to `limit` queues of the endpoint due by nowMs, the longest due first; reads nothing else. */
  due(url: string, nowMs: number, limit: number): Promise<string[]>;
  /** Whether the endpoint has a pending delivery, due or not. */
  hasPending(url: string): Promise<boolean>;
  /**
   * The queue's oldest pending delivery if its due entry has fallen due, else when it does;
   * undefined when the queue has no pending delivery left (its due entry is then removed).
   */
  head(queue: string, nowMs: number): Promise<QueueHead | undefined>;
  /** Removes the head's delivery; true when the queue is left empty, its due entry removed with it. */
  delivered(head: DueHead): Promise<boolean>;
  retryLater(delivery: OutboxDelivery, change: { attempts: number; dueAt: number; lastFailure: string }): Promise<void>;
  deadLetter(delivery: OutboxDelivery, change: { attempts: number; lastFailure: string; deadLetteredAt: number }): Promise<void>;
  /** Queues the dead letters again (all, or those of eventIds) with a fresh retry period; returns those queued. */
  redrive(nowMs: number, eventIds?: readonly string[]): Promise<OutboxDelivery[]>;
  /** Every delivery in the given state, read consistently: a scan, for npm run events; the sender never lists. */
  list(state: OutboxDelivery['state']): Promise<OutboxDelivery[]>;
  /**
   * Read once at start: gives every queue with a pending delivery and no due entry one, due at
   * nowMs (an outbox written before the due index has none), and returns every endpoint the
   * outbox holds deliveries for, pending or dead (a redrive may wake the latter).
   */
  recover(nowMs: number): Promise<string[]>;
}

const key = ({ queue, version }: Pick<OutboxDelivery, 'queue' | 'version'>) => ({ queue, version });
/** A space never appears in a parsed URL, nor in a petId. */
const queueOf = (petId: string, url: string) => `${petId} ${url}`;
const deadLettersOf = (queue: string) => `dead ${queue}`;

/** A change to send to an endpoint, as queued: none of its attempts made yet. */
function pendingDelivery(change: Pick<OutboxDelivery, 'version' | 'url' | 'petId' | 'eventId' | 'body'>, nowMs: number): OutboxDelivery {
  const { version, url, petId, eventId, body } = change;
  return { queue: queueOf(petId, url), version, url, petId, eventId, body, queuedAt: nowMs, attempts: 0, state: 'pending' };
}
const dueEntryKey = (queue: string) => ({ queue, version: DUE_ENTRY_VERSION });

/** Numbers come back as decimal text (unmarshallOptions): petId stays a string, the rest are numbers. */
function fromStored(item: Record<string, unknown>): OutboxDelivery {
  const numbers = ['version', 'queuedAt', 'attempts', 'deadLetteredAt'] as const;
  const delivery = { ...item } as Record<string, unknown>;
  for (const name of numbers) if (item[name] !== undefined) delivery[name] = Number(String(item[name]));
  delivery.petId = String(item.petId);
  return delivery as unknown as OutboxDelivery;
}

/**
 * Marks a queue due at dueAt, or (keepDueAt) only where it has no due entry yet, and counts the
 * addition. Written after the deliveries it is for: the sender removes a due entry only while its
 * count is the one it read before it found the queue empty, so a delivery added meanwhile keeps
 * (or makes) one.
 */
const markDue = (tableName: string, queue: string, url: string, dueAt: number, { keepDueAt }: { keepDueAt: boolean }) => ({
  TableName: tableName,
  Key: dueEntryKey(queue),
  UpdateExpression: `SET #url = :url, dueAt = ${keepDueAt ? 'if_not_exists(dueAt, :dueAt)' : ':dueAt'} ADD additions :one`,
  ExpressionAttributeNames: { '#url': 'url' },
  ExpressionAttributeValues: { ':url': url, ':dueAt': dueAt, ':one': 1 },
});

export function createWebhookOutbox(client: DynamoDBDocumentClient, tableName: string): WebhookOutbox {
  async function scan(): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    for await (const page of paginateScan({ client }, { TableName: tableName, ConsistentRead: true })) items.push(...(page.Items ?? []));
    return items;
  }

  const isDelivery = (item: Record<string, unknown>) => Number(String(item.version)) !== DUE_ENTRY_VERSION;

  async function list(state: OutboxDelivery['state']): Promise<OutboxDelivery[]> {
    return (await scan()).filter((item) => isDelivery(item) && item.state === state).map(fromStored);
  }

  /** Removes the queue's due entry unless a delivery was added to the queue since it counted `additions`; whether it did. */
  async function removeDueEntry(queue: string, additions: number): Promise<boolean> {
    try {
      await client.send(
        new DeleteCommand({
          TableName: tableName,
          Key: dueEntryKey(queue),
          ConditionExpression: 'additions = :additions',
          ExpressionAttributeValues: { ':additions': additions },
        }),
      );
      return true;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      return false;
    }
  }

  /** Moves a delivery out of its queue, to the queue's dead letters, with the given fields. */
  async function moveToDeadLetters(delivery: OutboxDelivery, fields: Partial<OutboxDelivery>): Promise<void> {
    await client.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: tableName, Key: key(delivery), ConditionExpression: 'attribute_exists(queue)' } },
          { Put: { TableName: tableName, Item: { ...delivery, ...fields, queue: deadLettersOf(delivery.queue), state: 'dead' } } },
        ],
      }),
    );
  }

  /** The queues of the endpoint in the due index, due by dueBy if given. */
  async function queryDueIndex(url: string, dueBy: number | undefined, limit: number): Promise<string[]> {
    const { dueIndex } = webhookOutboxTable;
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: dueIndex.indexName,
        KeyConditionExpression: dueBy === undefined ? '#url = :url' : '#url = :url AND dueAt <= :dueBy',
        ExpressionAttributeNames: { '#url': dueIndex.partitionKey.name },
        ExpressionAttributeValues: { ':url': url, ...(dueBy === undefined ? {} : { ':dueBy': dueBy }) },
        Limit: limit,
      }),
    );
    return Items.map((item) => String(item.queue));
  }

  return {
    async enqueue(subscriptions, events, nowMs) {
      const deliveries = subscriptions.flatMap(({ url, eventTypes }) =>
        events
          .filter((event) => takes(eventTypes, event))
          .map((event) =>
            pendingDelivery(
              { version: event.position, url, petId: String(event.petId), eventId: event.id, body: toJson(event.body) },
              nowMs,
            ),
          ),
      );
      // One queue's deliveries are written one after the other, oldest first, then its due entry: the
      // sender takes a queue's oldest pending delivery as its head, so a later version written first would
      // be sent first. A batch handled again (after a crash) writes no delivery twice, and marks the queue
      // due again, which a delivery written before the crash may need.
      const queues = Map.groupBy(deliveries, (delivery) => delivery.queue);
      await Promise.all(
        [...queues].map(async ([queue, queued]) => {
          for (const Item of queued.sort((a, b) => a.version - b.version)) {
            await client
              .send(new PutCommand({ TableName: tableName, Item, ConditionExpression: 'attribute_not_exists(queue)' }))
              .catch((error: unknown) => {
                if (!(error instanceof ConditionalCheckFailedException)) throw error;
              });
          }
          await client.send(new UpdateCommand(markDue(tableName, queue, queued[0]!.url, nowMs, { keepDueAt: true })));
        }),
      );
    },

    due: (url, nowMs, limit) => queryDueIndex(url, nowMs, limit),

    hasPending: async (url) => (await queryDueIndex(url, undefined, 1)).length > 0,

    async head(queue, nowMs) {
      for (;;) {
        // The due entry (version 0) and the two oldest deliveries: pending, as dead letters are kept apart (recover moves
        // those an earlier version kept in the queue). A second delivery read says the first is not the last.
        const { Items = [] } = await client.send(
          new QueryCommand({
            TableName: tableName,
            ConsistentRead: true,
            KeyConditionExpression: 'queue = :queue',
            ExpressionAttributeValues: { ':queue': queue },
            Limit: 3,
          }),
        );
        const [entry, oldest, next] = Items;
        if (!entry || isDelivery(entry)) return undefined;
        const dueAt = Number(String(entry.dueAt));
        if (dueAt > nowMs) return { dueAt };
        const additions = Number(String(entry.additions));
        if (oldest) return { due: fromStored(oldest), ...(next ? {} : { lastOf: additions }) };
        if (await removeDueEntry(queue, additions)) return undefined;
        // A delivery was added since the entry was read: read the queue again.
      }
    },

    async delivered({ due: delivery, lastOf }) {
      await client.send(new DeleteCommand({ TableName: tableName, Key: key(delivery) }));
      if (lastOf === undefined) return false;
      // Two plain deletes, not one transaction: DynamoDB Local spends more CPU on a TransactWriteItems than on both.
      // False when a delivery was added since the head was read: the queue goes on, with its due entry.
      return removeDueEntry(delivery.queue, lastOf);
    },

    async retryLater(delivery, { attempts, dueAt, lastFailure }) {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key(delivery),
          UpdateExpression: 'SET attempts = :attempts, lastFailure = :lastFailure',
          ConditionExpression: 'attribute_exists(queue)',
          ExpressionAttributeValues: { ':attempts': attempts, ':lastFailure': lastFailure },
        }),
      );
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: dueEntryKey(delivery.queue),
          UpdateExpression: 'SET dueAt = :dueAt',
          ConditionExpression: 'attribute_exists(queue)',
          ExpressionAttributeValues: { ':dueAt': dueAt },
        }),
      );
    },

    deadLetter: (delivery, change) => moveToDeadLetters(delivery, change),

    async redrive(nowMs, eventIds) {
      const chosen = (await list('dead')).filter((delivery) => !eventIds || eventIds.includes(delivery.eventId));
      for (const dead of chosen) {
        const pending = pendingDelivery(dead, nowMs);
        const revived = { Put: { TableName: tableName, Item: pending } };
        // Back into its queue with the queue's due entry at once: a redriven delivery never waits without one. A dead
        // letter an earlier version kept in its queue (not yet moved by a start) is put over itself.
        const moved =
          dead.queue === pending.queue
            ? [revived]
            : [{ Delete: { TableName: tableName, Key: key(dead), ConditionExpression: 'attribute_exists(queue)' } }, revived];
        await client.send(
          new TransactWriteCommand({
            // Due now, even where the queue waits for a retry: a redriven delivery is sent at once.
            TransactItems: [...moved, { Update: markDue(tableName, pending.queue, pending.url, nowMs, { keepDueAt: false }) }],
          }),
        );
      }
      return chosen;
    },

    list,

    async recover(nowMs) {
      const items = await scan();
      const marked = new Set(items.filter((item) => !isDelivery(item)).map((item) => String(item.queue)));
      const deliveries = items.filter(isDelivery).map(fromStored);
      for (const dead of deliveries)
        if (dead.state === 'dead' && dead.queue === queueOf(dead.petId, dead.url)) await moveToDeadLetters(dead, {});
      const unmarked = new Map<string, string>();
      for (const delivery of deliveries)
        if (delivery.state === 'pending' && !marked.has(delivery.queue)) unmarked.set(delivery.queue, delivery.url);
      for (const [queue, url] of unmarked) await client.send(new UpdateCommand(markDue(tableName, queue, url, nowMs, { keepDueAt: true })));
      return [...new Set(deliveries.map((delivery) => delivery.url))];
    },
  };
}
