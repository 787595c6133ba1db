import { DeleteCommand, paginateScan, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { toJson } from '../functions/int64-json.ts';
import { eventIdOf, inventoryChangedEvent, type PetChange } from '../functions/domain/inventory-events.ts';

/**
 * npm start's pending webhook deliveries, in a table of the local store: they are written before
 * the stream position that produced them is saved, so a restart or a kill -9 loses none. One item
 * per change and endpoint; a queue is one pet at one endpoint, its items in version order, and
 * only its oldest pending item is attempted, so a pet's events reach each receiver in order.
 */
export const webhookOutboxTable = {
  partitionKey: { name: 'queue', type: 'S' },
  sortKey: { name: 'version', type: 'N' },
} as const;

export interface OutboxDelivery {
  /** `<petId> <url>`: one pet at one endpoint (a space never appears in a parsed URL). */
  queue: string;
  version: number;
  url: string;
  petId: string;
  eventId: string;
  /** The exact body every attempt sends. */
  body: string;
  /** When the change was queued (ms): deliveries are retried for the policy's retryForMs after it. */
  queuedAt: number;
  attempts: number;
  nextAttemptAt: number;
  state: 'pending' | 'dead';
  lastFailure?: string;
  deadLetteredAt?: number;
}

export interface WebhookOutbox {
  /** Queues each change for each endpoint; a change queued already is left as it is. */
  enqueue(urls: readonly string[], changes: readonly PetChange[], nowMs: number): Promise<void>;
  /** Every delivery in the given state, read consistently. */
  list(state: OutboxDelivery['state']): Promise<OutboxDelivery[]>;
  delivered(delivery: OutboxDelivery): Promise<void>;
  retryLater(delivery: OutboxDelivery, change: { attempts: number; nextAttemptAt: number; lastFailure: string }): Promise<void>;
  deadLetter(delivery: OutboxDelivery, change: { attempts: number; lastFailure: string; deadLetteredAt: number }): Promise<void>;
  /** Queues the dead letters again (all, or those of eventIds) with a fresh retry period; returns those queued. */
  redrive(nowMs: number, eventIds?: readonly string[]): Promise<OutboxDelivery[]>;
}

const key = ({ queue, version }: Pick<OutboxDelivery, 'queue' | 'version'>) => ({ queue, version });

function fromStored(item: Record<string, unknown>): OutboxDelivery {
  const numbers = ['version', 'queuedAt', 'attempts', 'nextAttemptAt', 'deadLetteredAt'] as const;
  const delivery = { ...item } as Record<string, unknown>;
  for (const name of numbers) if (item[name] !== undefined) delivery[name] = Number(String(item[name]));
  delivery.petId = String(item.petId);
  return delivery as unknown as OutboxDelivery;
}

export function createWebhookOutbox(client: DynamoDBDocumentClient, tableName: string): WebhookOutbox {
  async function update(delivery: OutboxDelivery, fields: Record<string, unknown>): Promise<void> {
    const names = Object.keys(fields);
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key(delivery),
        UpdateExpression: `SET ${names.map((_name, index) => `#f${index} = :f${index}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(queue)',
        ExpressionAttributeNames: Object.fromEntries(names.map((name, index) => [`#f${index}`, name])),
        ExpressionAttributeValues: Object.fromEntries(names.map((name, index) => [`:f${index}`, fields[name]])),
      }),
    );
  }

  async function list(state: OutboxDelivery['state']): Promise<OutboxDelivery[]> {
    const found: OutboxDelivery[] = [];
    const pages = paginateScan(
      { client },
      {
        TableName: tableName,
        ConsistentRead: true,
        FilterExpression: '#state = :state',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':state': state },
      },
    );
    for await (const page of pages) for (const item of page.Items ?? []) found.push(fromStored(item));
    return found;
  }

  return {
    async enqueue(urls, changes, nowMs) {
      const deliveries = urls.flatMap((url) =>
        changes.map(
          (petChange): OutboxDelivery => ({
            queue: `${petChange.petId} ${url}`,
            version: petChange.change.version,
            url,
            petId: String(petChange.petId),
            eventId: eventIdOf(petChange),
            body: toJson(inventoryChangedEvent(petChange)),
            queuedAt: nowMs,
            attempts: 0,
            nextAttemptAt: nowMs,
            state: 'pending',
          }),
        ),
      );
      // One queue's deliveries are written one after the other, oldest first: the sender takes a queue's
      // oldest pending delivery as its head, so a later version written first would be sent first.
      const queues = Map.groupBy(deliveries, (delivery) => delivery.queue);
      await Promise.all(
        [...queues.values()].map(async (queued) => {
          for (const Item of queued.sort((a, b) => a.version - b.version)) {
            await client
              .send(new PutCommand({ TableName: tableName, Item, ConditionExpression: 'attribute_not_exists(queue)' }))
              .catch((error: unknown) => {
                if (!(error instanceof ConditionalCheckFailedException)) throw error;
              });
          }
        }),
      );
    },

    list,

    async delivered(delivery) {
      await client.send(new DeleteCommand({ TableName: tableName, Key: key(delivery) }));
    },

    retryLater: (delivery, change) => update(delivery, change),

    deadLetter: (delivery, change) => update(delivery, { ...change, state: 'dead' }),

    async redrive(nowMs, eventIds) {
      const chosen = (await list('dead')).filter((delivery) => !eventIds || eventIds.includes(delivery.eventId));
      for (const delivery of chosen) await update(delivery, { state: 'pending', attempts: 0, queuedAt: nowMs, nextAttemptAt: nowMs });
      return chosen;
    },
  };
}
