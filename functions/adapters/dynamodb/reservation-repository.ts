import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient, type NumberValue } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { randomUUID } from 'node:crypto';
import { StoreUnavailableError } from '../../domain/errors.ts';
import type { ReservationRecord, ReservationRepository } from '../../domain/reservations.ts';
import type { Reservation } from '../../domain/schemas.ts';
import { callStore, unmarshallOptions } from './document-client.ts';
import { readEntries } from './entry-reads.ts';
import { stockWriteInput } from './stock-write-input.ts';
import { toVersionedItem } from './stored-inventory-item.ts';
import { RESERVATION_RETENTION_DAYS, reservationsTable } from './tables.ts';

/** The `due` of an active reservation: its key in the sparse index of the active ones (tables.ts). */
const ACTIVE = 'active';
const THROTTLED = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

/** A reservation's record as a Put action of the transaction that makes its holds: refused if its id exists (no overwrite). */
export function reservationPut(tableName: string, record: ReservationRecord) {
  return {
    TableName: tableName,
    Item: {
      ...record,
      due: ACTIVE,
      deleteAt: Math.ceil(record.expiresAt / 1000) + RESERVATION_RETENTION_DAYS * 24 * 60 * 60,
    },
    ConditionExpression: 'attribute_not_exists(reservationId)',
  };
}

const numberOf = (value: unknown) => Number(String(value));

function toRecord(stored: Record<string, unknown>): ReservationRecord {
  const { reservationId, status, items, expiresAt, reference, createdAt, settledAt, keyId, requestId, idempotencyKey } =
    stored as unknown as Omit<ReservationRecord, 'items'> & { items: { petId: NumberValue; quantity: NumberValue }[] };
  return {
    reservationId,
    status,
    items: items.map(({ petId, quantity }) => ({
      petId: BigInt(petId.toString()),
      quantity: numberOf(quantity),
    })),
    expiresAt: numberOf(expiresAt),
    ...(reference === undefined ? {} : { reference }),
    createdAt: numberOf(createdAt),
    ...(settledAt === undefined ? {} : { settledAt: numberOf(settledAt) }),
    keyId,
    requestId,
    idempotencyKey,
  };
}

/**
 * A reservation as an Idempotency-Key's record keeps the answer (petIds come back as exact text),
 * its fields in the order the first answer had them: a stored map comes back in the store's order.
 */
export function toAnsweredReservation(stored: Record<string, unknown>): Reservation {
  const { reservationId, status, items, expiresAt, reference, createdAt, settledAt } = stored as unknown as Reservation;
  return {
    reservationId,
    status,
    items: items.map(({ petId, quantity }) => ({ petId: BigInt(String(petId)), quantity: numberOf(quantity) })),
    expiresAt,
    reference,
    createdAt,
    settledAt,
  };
}

export function createReservationRepository(
  client: DynamoDBDocumentClient,
  tables: { inventoryTable: string; reservationsTable: string },
): ReservationRepository {
  return {
    find: (reservationId) =>
      callStore(async () => {
        const { Item } = await client.send(
          new GetCommand({ TableName: tables.reservationsTable, Key: { reservationId }, ConsistentRead: true }),
        );
        return Item ? toRecord(Item) : undefined;
      }),

    findEntries: (petIds) => callStore(() => readEntries(client, tables.inventoryTable, petIds)),

    settle: ({ reservationId, status, writes, nowMs }) =>
      callStore(async () => {
        try {
          await client.send(
            new TransactWriteCommand({
              TransactItems: [
                ...writes.map((write) => ({ Update: { ...stockWriteInput(tables.inventoryTable, write) } })),
                {
                  Update: {
                    TableName: tables.reservationsTable,
                    Key: { reservationId },
                    // Leaving the index of the active ones: the sweep no longer finds it.
                    UpdateExpression: 'SET #status = :status, settledAt = :now REMOVE due',
                    // Committed or released only before expiresAt; expired only from it on.
                    ConditionExpression: `#status = :active AND expiresAt ${status === 'expired' ? '<=' : '>'} :now`,
                    ExpressionAttributeNames: { '#status': 'status' },
                    ExpressionAttributeValues: { ':status': status, ':active': ACTIVE, ':now': nowMs },
                  },
                },
              ],
              // The SDK resends the same token when it retries this call: a retry after a lost answer applies nothing twice.
              ClientRequestToken: randomUUID(),
            }),
          );
          return { settled: true };
        } catch (error) {
          if (!(error instanceof TransactionCanceledException)) throw error;
          const reasons = error.CancellationReasons ?? [];
          if (reasons[writes.length]?.Code === 'ConditionalCheckFailed') return { stale: true };
          const refused = reasons.slice(0, writes.length).flatMap((reason, index) => {
            if (reason.Code !== 'ConditionalCheckFailed') return [];
            return [{ index, entry: reason.Item ? toVersionedItem(unmarshall(reason.Item, unmarshallOptions())) : undefined }];
          });
          if (refused.length > 0) return { refused };
          const codes = reasons.map((reason) => reason.Code);
          if (codes.includes('TransactionConflict')) return { conflict: true };
          if (codes.some((code) => code !== undefined && THROTTLED.has(code))) throw new StoreUnavailableError({ cause: error });
          throw error;
        }
      }),

    due: (nowMs, limit) =>
      callStore(async () => {
        const { Items } = await client.send(
          new QueryCommand({
            TableName: tables.reservationsTable,
            IndexName: reservationsTable.dueIndex.indexName,
            KeyConditionExpression: 'due = :active AND expiresAt <= :now',
            ExpressionAttributeValues: { ':active': ACTIVE, ':now': nowMs },
            Limit: limit,
          }),
        );
        return (Items ?? []).map((item) => String(item.reservationId));
      }),
  };
}
