import { BatchWriteCommand, QueryCommand, type DynamoDBDocumentClient, type NumberValue } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreUnavailableError } from '../../domain/errors.ts';
import { inVersionRounds, type HistoryRepository, type InventoryChange } from '../../domain/inventory-history.ts';
import type { ChangeEventData } from '../../domain/schemas.ts';
import { callStore } from './document-client.ts';
import { historyTable } from './tables.ts';

/** A history record as the history table holds it: numbers as DynamoDB gives them, and when it expires. */
type HistoryItem = Omit<
  InventoryChange,
  'version' | 'quantityBefore' | 'quantityAfter' | 'delta' | 'reservedBefore' | 'reservedAfter' | 'reservationId' | 'reference'
> & {
  petId: NumberValue;
  /** Absent on entries recorded before reservations existed. */
  reservedBefore?: NumberValue;
  reservedAfter?: NumberValue;
  reservationId?: string | null;
  reference?: string | null;
  version: NumberValue;
  quantityBefore: NumberValue | null;
  quantityAfter: NumberValue;
  delta: NumberValue;
  expiresAt: NumberValue;
};

const DAY_SECONDS = 86_400;
/** BatchWriteItem's limit per call. */
const BATCH_WRITE_LIMIT = 25;
/** Calls per batch before unprocessed items count as a store fault: the consumer then retries the whole batch. */
const BATCH_WRITE_ATTEMPTS = 6;
const BATCH_RETRY_BASE_MS = 50;

const number = (value: NumberValue | null): number | null => (value === null ? null : Number(value.toString()));

function toChange(stored: Record<string, unknown>): InventoryChange {
  const {
    petId: _petId,
    expiresAt: _expiresAt,
    version,
    quantityBefore,
    quantityAfter,
    delta,
    reservedBefore,
    reservedAfter,
    ...rest
  } = stored as unknown as HistoryItem;
  return {
    version: Number(version.toString()),
    occurredAt: rest.occurredAt,
    kind: rest.kind,
    quantityBefore: number(quantityBefore),
    quantityAfter: Number(quantityAfter.toString()),
    delta: Number(delta.toString()),
    status: rest.status,
    reason: rest.reason,
    // Entries recorded before reservations existed held nothing reserved, for no reservation.
    reservedBefore: reservedBefore === undefined ? 0 : Number(reservedBefore.toString()),
    reservedAfter: reservedAfter === undefined ? 0 : Number(reservedAfter.toString()),
    reservationId: rest.reservationId ?? null,
    reference: rest.reference ?? null,
    idempotencyKey: rest.idempotencyKey,
    requestId: rest.requestId,
    keyId: rest.keyId,
  };
}

/**
 * The history table. An entry is written whole under (petId, version) with a Put: it is derived
 * from the change alone, so writing it again writes the same item, and a batch retried after a
 * failure needs no condition. `retentionDays` sets each entry's expiry from the time of its change.
 */
export function createHistoryRepository(client: DynamoDBDocumentClient, tableName: string, retentionDays: number): HistoryRepository {
  const item = (change: ChangeEventData) => ({
    ...change,
    [historyTable.timeToLiveAttribute]: Math.floor(Date.parse(change.occurredAt) / 1000) + retentionDays * DAY_SECONDS,
  });

  async function writeBatch(changes: readonly ChangeEventData[]): Promise<void> {
    let pending = changes.map((change) => ({ PutRequest: { Item: item(change) } }));
    for (let attempt = 1; pending.length > 0; attempt += 1) {
      if (attempt > BATCH_WRITE_ATTEMPTS)
        throw new StoreUnavailableError({ cause: new Error(`${pending.length} history records still unprocessed`) });
      if (attempt > 1) await sleep(BATCH_RETRY_BASE_MS * 2 ** (attempt - 2));
      const { UnprocessedItems } = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = (UnprocessedItems?.[tableName] ?? []) as typeof pending;
    }
  }

  return {
    record: (changes) =>
      callStore(async () => {
        // A batch may not hold one key twice: a change delivered twice in one batch is written once.
        const unique = [...new Map(changes.map((change) => [`${change.petId}#${change.version}`, change])).values()];
        // Round after round, each written whole (its unprocessed items too) before the next begins.
        for (const round of inVersionRounds(unique)) {
          const batches: ChangeEventData[][] = [];
          for (let start = 0; start < round.length; start += BATCH_WRITE_LIMIT) batches.push(round.slice(start, start + BATCH_WRITE_LIMIT));
          await Promise.all(batches.map(writeBatch));
        }
      }),

    page: (petId, { limit, afterVersion }) =>
      callStore(async () => {
        // One more than asked: whether it comes back says whether a next page exists, without a second call.
        const { Items = [] } = await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: '#petId = :petId AND #version > :after',
            ExpressionAttributeNames: { '#petId': historyTable.partitionKey.name, '#version': historyTable.sortKey.name },
            ExpressionAttributeValues: { ':petId': petId, ':after': afterVersion },
            Limit: limit + 1,
          }),
        );
        return { changes: Items.slice(0, limit).map(toChange), more: Items.length > limit };
      }),
  };
}
