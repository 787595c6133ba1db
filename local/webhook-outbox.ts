import {
  DeleteCommand,
  paginateScan,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { conditionHeld } from '../functions/adapters/dynamodb/document-client.ts';
import { webhooksOf, type InventoryEvent } from '../functions/domain/inventory-events.ts';
import type { DueHead, QueuedDelivery, WebhookDeliveryQueue } from '../functions/domain/webhook-delivery-loop.ts';
import type { WebhookSubscription } from '../functions/domain/webhooks.ts';
import { toJson } from '../functions/int64-json.ts';

/**
 * npm start's delivery queue, where AWS has its SQS FIFO queue: a table of the local store, written before the stream
 * position that produced its items is saved, so a restart or a kill -9 loses none. A queue (the loop's group) is one pet
 * at one endpoint, its deliveries sorted by `version`, and a due entry (version 0) that says when its oldest is next
 * attempted; only due entries are in the due index, so a backlog waiting for its next attempt costs nothing to ask.
 * Dead letters are kept apart (`dead <queue>`). The layout and what each step costs: docs/events.md, "What a backlog costs".
 */
export const webhookOutboxTable = {
  partitionKey: { name: 'queue', type: 'S' },
  sortKey: { name: 'version', type: 'N' },
  dueIndex: { indexName: 'byEndpointDue', partitionKey: { name: 'url', type: 'S' }, sortKey: { name: 'dueAt', type: 'N' } },
} as const;

export interface OutboxDelivery extends QueuedDelivery {
  /** `<petId> <url>`; a dead letter's is `dead <petId> <url>`. */
  queue: string;
  /** The event's place among its pet's (InventoryEvent.position). */
  version: number;
  petId: string;
  state: 'pending' | 'dead';
  lastFailure?: string;
  deadLetteredAt?: number;
}

/** `lastOf`: the delivery was its queue's only one as read, when its due entry had counted that many additions. */
export type OutboxHead = DueHead<OutboxDelivery> & { lastOf?: number };

export type WebhookOutbox = ReturnType<typeof createWebhookOutbox>;

/** The sort key of a queue's due entry: versions start at 1. */
const DUE_ENTRY_VERSION = 0;
const key = ({ queue, version }: Pick<OutboxDelivery, 'queue' | 'version'>) => ({ queue, version });
const dueEntryKey = (queue: string) => ({ queue, version: DUE_ENTRY_VERSION });
const isDelivery = (item: Record<string, unknown>) => Number(String(item.version)) !== DUE_ENTRY_VERSION;
/** A space never appears in a parsed URL, nor in a petId. */
const queueOf = (petId: string, url: string) => `${petId} ${url}`;
const pending = (
  { version, url, petId, eventId, body }: Omit<OutboxDelivery, 'queue' | 'queuedAt' | 'attempts' | 'state'>,
  nowMs: number,
) => ({ queue: queueOf(petId, url), version, url, petId, eventId, body, queuedAt: nowMs, attempts: 0, state: 'pending' }) as const;

/** Numbers come back as decimal text (unmarshallOptions): petId stays a string, the rest are numbers. */
function fromStored(item: Record<string, unknown>): OutboxDelivery {
  const delivery: Record<string, unknown> = { ...item, petId: String(item.petId) };
  for (const name of ['version', 'queuedAt', 'attempts', 'deadLetteredAt'])
    if (item[name] !== undefined) delivery[name] = Number(String(item[name]));
  return delivery as unknown as OutboxDelivery;
}

export function createWebhookOutbox(client: DynamoDBDocumentClient, TableName: string) {
  /**
   * Marks a queue due at dueAt, or (keepDueAt) only where it has no due entry yet, and counts the addition. Written
   * after the deliveries it is for: a due entry is removed only while its count is the one read before its queue was
   * found empty (removeDueEntry), so a delivery added meanwhile keeps (or makes) one.
   */
  const markDue = (queue: string, url: string, dueAt: number, keepDueAt: boolean) => ({
    TableName,
    Key: dueEntryKey(queue),
    UpdateExpression: `SET #url = :url, dueAt = ${keepDueAt ? 'if_not_exists(dueAt, :dueAt)' : ':dueAt'} ADD additions :one`,
    ExpressionAttributeNames: { '#url': 'url' },
    ExpressionAttributeValues: { ':url': url, ':dueAt': dueAt, ':one': 1 },
  });
  const removeDueEntry = (queue: string, additions: number) =>
    conditionHeld(
      client.send(
        new DeleteCommand({
          TableName,
          Key: dueEntryKey(queue),
          ConditionExpression: 'additions = :additions',
          ExpressionAttributeValues: { ':additions': additions },
        }),
      ),
    );
  const existing = { ConditionExpression: 'attribute_exists(queue)' };
  const update = (Key: object, UpdateExpression: string, ExpressionAttributeValues: Record<string, unknown>) =>
    client.send(new UpdateCommand({ TableName, Key, UpdateExpression, ExpressionAttributeValues, ...existing }));
  /** Puts `item` in the place of `delivery`, in one transaction with `alongside`: to the dead letters, or back into its queue. */
  const move = (delivery: OutboxDelivery, item: OutboxDelivery, alongside: object[] = []) => {
    const out = delivery.queue === item.queue ? [] : [{ Delete: { TableName, Key: key(delivery), ...existing } }];
    return client.send(new TransactWriteCommand({ TransactItems: [...out, { Put: { TableName, Item: item } }, ...alongside] }));
  };
  const moveToDeadLetters = (delivery: OutboxDelivery, fields: Partial<OutboxDelivery>) =>
    move(delivery, { ...delivery, ...fields, queue: `dead ${delivery.queue}`, state: 'dead' });
  async function scan(): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    for await (const page of paginateScan({ client }, { TableName, ConsistentRead: true })) items.push(...(page.Items ?? []));
    return items;
  }
  /** Every delivery in the given state, read consistently: a scan, for npm run events; the loop never lists. */
  const list = async (state: OutboxDelivery['state']) =>
    (await scan()).filter((item) => isDelivery(item) && item.state === state).map(fromStored);
  async function due(url: string, nowMs: number, limit: number): Promise<string[]> {
    const { indexName: IndexName, partitionKey } = webhookOutboxTable.dueIndex;
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName,
        IndexName,
        KeyConditionExpression: '#url = :url AND dueAt <= :dueBy',
        ExpressionAttributeNames: { '#url': partitionKey.name },
        ExpressionAttributeValues: { ':url': url, ':dueBy': nowMs },
        Limit: limit,
      }),
    );
    return Items.map((item) => String(item.queue));
  }

  const queue = {
    due,

    async head(group, nowMs) {
      for (;;) {
        // The due entry and the two oldest deliveries (pending: dead letters are kept apart); a second says the first is not the last.
        const query = {
          TableName,
          ConsistentRead: true,
          KeyConditionExpression: 'queue = :queue',
          ExpressionAttributeValues: { ':queue': group },
        };
        const [entry, oldest, next] = (await client.send(new QueryCommand({ ...query, Limit: 3 }))).Items ?? [];
        if (!entry || isDelivery(entry) || Number(String(entry.dueAt)) > nowMs) return undefined;
        const additions = Number(String(entry.additions));
        if (oldest) return { due: fromStored(oldest), ...(next ? {} : { lastOf: additions }) };
        if (await removeDueEntry(group, additions)) return undefined;
        // A delivery was added since the entry was read: read the queue again.
      }
    },

    async delivered({ due: delivery, lastOf }) {
      // Two plain deletes, not one transaction: DynamoDB Local spends more CPU on a TransactWriteItems than on both.
      await client.send(new DeleteCommand({ TableName, Key: key(delivery) }));
      return lastOf !== undefined && removeDueEntry(delivery.queue, lastOf);
    },

    async retryLater(delivery, { attempts, dueAt, lastFailure }) {
      await update(key(delivery), 'SET attempts = :attempts, lastFailure = :lastFailure', {
        ':attempts': attempts,
        ':lastFailure': lastFailure,
      });
      await update(dueEntryKey(delivery.queue), 'SET dueAt = :dueAt', { ':dueAt': dueAt });
    },

    async deadLetter(delivery, change) {
      await moveToDeadLetters(delivery, change);
    },

    hasPending: async (url) => (await due(url, Number.MAX_SAFE_INTEGER, 1)).length > 0,
  } satisfies WebhookDeliveryQueue<OutboxHead>;

  return {
    ...queue,

    /** Queues each event for each endpoint that takes its type; an event queued already is left as it is. */
    async enqueue(subscriptions: readonly WebhookSubscription[], events: readonly InventoryEvent[], nowMs: number): Promise<void> {
      const deliveries = webhooksOf(subscriptions, events).map(({ url, event }) =>
        pending({ version: event.position, url, petId: String(event.petId), eventId: event.id, body: toJson(event.body) }, nowMs),
      );
      // A queue's deliveries one after the other, oldest first, then its due entry: a later version written first would be
      // its head, and sent first. A batch handled again (after a crash) writes none twice, and marks the queue due again,
      // which a delivery written before the crash may need.
      await Promise.all(
        [...Map.groupBy(deliveries, (delivery) => delivery.queue)].map(async ([group, queued]) => {
          for (const Item of queued.sort((a, b) => a.version - b.version))
            await conditionHeld(client.send(new PutCommand({ TableName, Item, ConditionExpression: 'attribute_not_exists(queue)' })));
          await client.send(new UpdateCommand(markDue(group, queued[0]!.url, nowMs, true)));
        }),
      );
    },

    /** Queues the dead letters again (all, or those of eventIds) with a fresh retry period, due at once; returns those queued. */
    async redrive(nowMs: number, eventIds?: readonly string[]): Promise<OutboxDelivery[]> {
      const chosen = (await list('dead')).filter((delivery) => !eventIds || eventIds.includes(delivery.eventId));
      // Due at once, even where the queue waits for a retry. A dead letter an earlier version kept in its queue (not yet
      // moved by a start) is put over itself.
      for (const dead of chosen)
        await move(dead, pending(dead, nowMs), [{ Update: markDue(queueOf(dead.petId, dead.url), dead.url, nowMs, false) }]);
      return chosen;
    },

    list,

    /**
     * Read once at start: moves the dead letters an earlier version kept in their queues, gives each queue with a pending
     * delivery and no due entry one, due at nowMs (an outbox written before the due index has none), and returns every
     * endpoint the outbox holds deliveries for, pending or dead (a redrive may wake the latter).
     */
    async recover(nowMs: number): Promise<string[]> {
      const items = await scan();
      const marked = new Set(items.filter((item) => !isDelivery(item)).map((item) => String(item.queue)));
      const deliveries = items.filter(isDelivery).map(fromStored);
      for (const dead of deliveries)
        if (dead.state === 'dead' && dead.queue === queueOf(dead.petId, dead.url)) await moveToDeadLetters(dead, {});
      const unmarked = new Map(
        deliveries.filter((one) => one.state === 'pending' && !marked.has(one.queue)).map((one) => [one.queue, one.url]),
      );
      for (const [group, url] of unmarked) await client.send(new UpdateCommand(markDue(group, url, nowMs, true)));
      return [...new Set(deliveries.map((delivery) => delivery.url))];
    },
  };
}
