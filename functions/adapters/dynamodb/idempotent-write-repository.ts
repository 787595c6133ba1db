import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient, type NumberValue } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { randomUUID } from 'node:crypto';
import { StoreUnavailableError, type ErrorCode } from '../../domain/errors.ts';
import type { IdempotentWriteRepository, IdempotencyRecord, RecordedOutcome } from '../../domain/idempotent-writes.ts';
import { HELD_FIELDS, INVENTORY_ITEM_FIELDS } from '../../domain/inventory-item-fields.ts';
import { reservationPut, toAnsweredReservation } from './reservation-repository.ts';
import { callStore, conditionHeld, unmarshallOptions, updateIfConditionHolds } from './document-client.ts';
import { readEntries } from './entry-reads.ts';
import { toInventoryItem, toVersionedItem } from './stored-inventory-item.ts';
import { stockWriteInput } from './stock-write-input.ts';

/**
 * The answer flattened into attributes (a single adjustment's entry, a batch's entries, or a
 * refusal's code and message); none while the change is applied but not yet answered. `answer`
 * tells an answer from none and an applied change from a refusal; the HTTP status of a refusal is
 * its code's, looked up where every status is (http/error-statuses.ts). A single applied change's
 * answer also keeps its entry's fields, each under recordAttributeOf its name: a refusal's answer
 * names no entry, a batch's names several.
 */
interface StoredRecord {
  recordId: string;
  requestHash: string;
  expiresAt: NumberValue;
  answer?: 'applied' | 'refused';
  /**
   * What records answered before `answer` held the HTTP status instead (200 for an applied change).
   * Kept readable while such a record may live: IDEMPOTENCY_WINDOW_SECONDS after the release that
   * stopped writing it, this attribute and its reading can go.
   */
  status?: NumberValue;
  /** A single adjustment's entry's version (its ETag); a batch's answer has none. */
  version?: NumberValue;
  /** A batch's entries, in the order of its changes. */
  items?: Record<string, unknown>[];
  /** A reservation's answer, as the API answered it. */
  reservation?: Record<string, unknown>;
  code?: ErrorCode;
  message?: string;
}

/** StoredRecord's attributes; the compiler asks for a new one here, so an entry's field never lands on it. */
const RECORD_ATTRIBUTES = {
  recordId: true,
  requestHash: true,
  expiresAt: true,
  answer: true,
  status: true,
  version: true,
  items: true,
  reservation: true,
  code: true,
  message: true,
} satisfies Record<keyof StoredRecord, true>;

/** The fields of an answered entry the record keeps: its count, and what was reserved of it (absent in records made before reservations: none). */
const ANSWERED_FIELDS = [...INVENTORY_ITEM_FIELDS, HELD_FIELDS[0]] as const;

/**
 * Where the record keeps an entry's field: under its own name, or as `pet<Field>` where the
 * record has an attribute so named (the entry's `status` as `petStatus`, as records have always kept it).
 */
function recordAttributeOf(field: string): string {
  return Object.hasOwn(RECORD_ATTRIBUTES, field) ? `pet${field[0]!.toUpperCase()}${field.slice(1)}` : field;
}

/** The record's attributes that hold the answer: the ones recordAnswer writes and recordRefusal puts. */
export function answerAttributes(outcome: RecordedOutcome): Record<string, unknown> {
  if ('item' in outcome) {
    const { item, version } = outcome;
    return {
      answer: 'applied',
      ...Object.fromEntries(ANSWERED_FIELDS.map((field) => [recordAttributeOf(field), item[field]])),
      version: version ?? 0,
    };
  }
  if ('items' in outcome) return { answer: 'applied', items: outcome.items };
  if ('reservation' in outcome) return { answer: 'applied', reservation: outcome.reservation };
  const { code, message } = outcome.error;
  return { answer: 'refused', code, message };
}

/** The answer a record holds, if it holds one yet. */
function outcomeOf(stored: Record<string, unknown>): RecordedOutcome | undefined {
  const { answer, status, version, items, reservation, code, message } = stored as unknown as StoredRecord;
  const recorded = answer ?? (status === undefined ? undefined : Number(status.toString()) === 200 ? 'applied' : 'refused');
  if (recorded === undefined) return undefined;
  if (recorded === 'refused') return { error: { code: code!, message: message ?? '' } };
  if (items) return { items: items.map((copy) => toInventoryItem(copy)) };
  if (reservation) return { reservation: toAnsweredReservation(reservation) };
  const item = toInventoryItem(Object.fromEntries(ANSWERED_FIELDS.map((field) => [field, stored[recordAttributeOf(field)]])));
  return version === undefined ? { item } : { item, version: Number(version.toString()) };
}

function toRecord(stored: Record<string, unknown>): IdempotencyRecord {
  const record = stored as unknown as StoredRecord;
  return {
    recordId: record.recordId,
    requestHash: record.requestHash,
    expiresAt: Number(record.expiresAt.toString()),
    outcome: outcomeOf(stored),
  };
}

const THROTTLED = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

/** DynamoDB deletes expired items days late (DynamoDB Local never): an expired record is as good as none. */
const NO_LIVE_RECORD = 'attribute_not_exists(recordId) OR expiresAt <= :now';

export function createIdempotentWriteRepository(
  client: DynamoDBDocumentClient,
  tables: { inventoryTable: string; idempotencyRecordsTable: string; reservationsTable?: string },
): IdempotentWriteRepository {
  const recordKey = (recordId: string) => ({ TableName: tables.idempotencyRecordsTable, Key: { recordId } });

  return {
    findRecord: (recordId) =>
      callStore(async () => {
        const { Item } = await client.send(new GetCommand({ ...recordKey(recordId), ConsistentRead: true }));
        return Item ? toRecord(Item) : undefined;
      }),

    findEntries: (petIds) => callStore(() => readEntries(client, tables.inventoryTable, petIds)),

    apply: ({ writes, record: { outcome, ...record }, nowSeconds, reservation }) =>
      callStore(async () => {
        const recordIndex = writes.length;
        if (reservation && !tables.reservationsTable) throw new Error('a reservation needs the reservations table');
        try {
          await client.send(
            new TransactWriteCommand({
              TransactItems: [
                ...writes.map((write) => ({ Update: stockWriteInput(tables.inventoryTable, write) })),
                {
                  Put: {
                    TableName: tables.idempotencyRecordsTable,
                    Item: { ...record, ...(outcome ? answerAttributes(outcome) : {}) },
                    ConditionExpression: NO_LIVE_RECORD,
                    ExpressionAttributeValues: { ':now': nowSeconds },
                  },
                },
                ...(reservation ? [{ Put: reservationPut(tables.reservationsTable!, reservation) }] : []),
              ],
              // The SDK resends the same token when it retries this call: a retry after a lost answer applies nothing twice.
              ClientRequestToken: randomUUID(),
            }),
          );
          return { applied: true };
        } catch (error) {
          if (!(error instanceof TransactionCanceledException)) throw error;
          const reasons = error.CancellationReasons ?? [];
          const codes = reasons.map((reason) => reason.Code);
          if (codes[recordIndex] === 'ConditionalCheckFailed') return { applied: false, recordedAlready: true };
          // DynamoDB checks every action's condition and names each that failed, so every refused change is named at once.
          const refused = reasons.slice(0, recordIndex).flatMap((reason, index) => {
            if (reason.Code !== 'ConditionalCheckFailed') return [];
            return [{ index, entry: reason.Item ? toVersionedItem(unmarshall(reason.Item, unmarshallOptions())) : undefined }];
          });
          if (refused.length > 0) return { applied: false, refused };
          if (codes.includes('TransactionConflict')) return { applied: false, conflict: true };
          if (codes.some((code) => code !== undefined && THROTTLED.has(code))) throw new StoreUnavailableError({ cause: error });
          throw error;
        }
      }),

    recordAnswer: (recordId, outcome) =>
      callStore(async () => {
        const answer = Object.entries(answerAttributes(outcome));
        const written = await updateIfConditionHolds(client, {
          ...recordKey(recordId),
          // Every name through a placeholder: `status` and `items` are reserved words.
          UpdateExpression: `SET ${answer.map(([name]) => `#${name} = :${name}`).join(', ')}`,
          // The first answer recorded, by this release or an earlier one, is the one every request with this key gives.
          ConditionExpression: 'attribute_exists(recordId) AND attribute_not_exists(#answer) AND attribute_not_exists(#status)',
          ExpressionAttributeNames: {
            ...Object.fromEntries(answer.map(([name]) => [`#${name}`, name])),
            '#answer': 'answer',
            '#status': 'status',
          },
          ExpressionAttributeValues: Object.fromEntries(answer.map(([name, value]) => [`:${name}`, value])),
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        });
        const recorded = written.held ? written.attributes : written.current;
        const recordedAnswer = recorded ? outcomeOf(recorded) : undefined;
        if (!recordedAnswer) throw new Error(`idempotency record ${recordId} vanished before its answer was recorded`);
        return recordedAnswer;
      }),

    recordRefusal: ({ outcome, ...record }, nowSeconds) =>
      callStore(() =>
        conditionHeld(
          client.send(
            new PutCommand({
              TableName: tables.idempotencyRecordsTable,
              Item: { ...record, ...(outcome ? answerAttributes(outcome) : {}) },
              ConditionExpression: NO_LIVE_RECORD,
              ExpressionAttributeValues: { ':now': nowSeconds },
            }),
          ),
        ),
      ),
  };
}
