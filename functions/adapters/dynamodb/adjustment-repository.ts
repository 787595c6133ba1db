import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient, type NumberValue } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { randomUUID } from 'node:crypto';
import { StoreUnavailableError, type ErrorCode } from '../../domain/errors.ts';
import type { AdjustmentOutcome, AdjustmentRepository, IdempotencyRecord } from '../../domain/inventory-adjustments.ts';
import { MAX_QUANTITY } from '../../domain/quantity.ts';
import type { PetStatus } from '../../domain/schemas.ts';
import { callStore, unmarshallOptions, updateIfConditionHolds } from './document-client.ts';
import { inventoryKey, toInventoryItem } from './inventory-repository.ts';
import { versionedChange } from './versioned-change.ts';

/** The answer flattened into attributes (a 200's entry, or an error's body); none while the change is applied but not yet answered. */
interface StoredRecord {
  recordId: string;
  requestHash: string;
  expiresAt: NumberValue;
  /** Kept with applied changes only: a refusal's answer names no entry. */
  petId?: NumberValue;
  status?: NumberValue;
  quantity?: NumberValue;
  petStatus?: PetStatus;
  code?: ErrorCode;
  message?: string;
}

function answerAttributes(outcome: AdjustmentOutcome): Record<string, unknown> {
  return 'item' in outcome ? { status: 200, quantity: outcome.item.quantity, petStatus: outcome.item.status } : { ...outcome.error };
}

function outcomeOf(stored: StoredRecord): AdjustmentOutcome | undefined {
  const { status, petId, quantity, petStatus, code, message } = stored;
  if (status === undefined) return undefined;
  const statusCode = Number(status.toString());
  return statusCode === 200
    ? { item: toInventoryItem({ petId, quantity, status: petStatus }) }
    : { error: { status: statusCode, code: code ?? '', message: message ?? '' } };
}

function toRecord(stored: Record<string, unknown>): IdempotencyRecord {
  const record = stored as unknown as StoredRecord;
  return {
    recordId: record.recordId,
    requestHash: record.requestHash,
    expiresAt: Number(record.expiresAt.toString()),
    outcome: outcomeOf(record),
  };
}

/** Positions of the actions in the transaction, to read their cancellation reasons. */
const ENTRY = 0;
const RECORD = 1;
const THROTTLED = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

/** DynamoDB deletes expired items days late (DynamoDB Local never): an expired record is as good as none. */
const NO_LIVE_RECORD = 'attribute_not_exists(recordId) OR expiresAt <= :now';

export function createAdjustmentRepository(
  client: DynamoDBDocumentClient,
  tables: { inventoryTable: string; idempotencyRecordsTable: string },
): AdjustmentRepository {
  const recordKey = (recordId: string) => ({ TableName: tables.idempotencyRecordsTable, Key: { recordId } });

  return {
    findRecord: (recordId) =>
      callStore(async () => {
        const { Item } = await client.send(new GetCommand({ ...recordKey(recordId), ConsistentRead: true }));
        return Item ? toRecord(Item) : undefined;
      }),

    findEntry: (petId) =>
      callStore(async () => {
        const { Item } = await client.send(
          new GetCommand({ TableName: tables.inventoryTable, Key: inventoryKey(petId), ConsistentRead: true }),
        );
        return Item ? toInventoryItem(Item) : undefined;
      }),

    apply: ({ petId, delta, record, attribution, nowSeconds }) =>
      callStore(async () => {
        // The bound that delta could cross: below 0 for a removal, above the largest quantity for an addition.
        const [bound, limit] = delta < 0 ? ['quantity >= :limit', -delta] : ['quantity <= :limit', MAX_QUANTITY - delta];
        const change = versionedChange(attribution);
        try {
          await client.send(
            new TransactWriteCommand({
              TransactItems: [
                {
                  Update: {
                    TableName: tables.inventoryTable,
                    Key: inventoryKey(petId),
                    UpdateExpression: `SET ${change.set} ADD quantity :delta`,
                    ConditionExpression: `attribute_exists(petId) AND ${bound}`,
                    ExpressionAttributeNames: change.names,
                    ExpressionAttributeValues: { ':delta': delta, ':limit': limit, ...change.values },
                    // The refusal carries the entry: 404 or 409, and the stock the 409 names, without a read.
                    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
                  },
                },
                {
                  Put: {
                    TableName: tables.idempotencyRecordsTable,
                    Item: { ...record, petId },
                    ConditionExpression: NO_LIVE_RECORD,
                    ExpressionAttributeValues: { ':now': nowSeconds },
                  },
                },
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
          if (codes[RECORD] === 'ConditionalCheckFailed') return { applied: false, recordedAlready: true };
          if (codes[ENTRY] === 'ConditionalCheckFailed') {
            const entry = reasons[ENTRY]?.Item;
            return { applied: false, refusedBy: entry ? toInventoryItem(unmarshall(entry, unmarshallOptions())) : undefined };
          }
          if (codes.includes('TransactionConflict')) return { applied: false, conflict: true };
          if (codes.some((code) => code !== undefined && THROTTLED.has(code))) throw new StoreUnavailableError({ cause: error });
          throw error;
        }
      }),

    recordAnswer: (recordId, outcome) =>
      callStore(async () => {
        const written = await updateIfConditionHolds(client, {
          ...recordKey(recordId),
          UpdateExpression: 'SET #status = :status, quantity = :quantity, petStatus = :petStatus',
          // The first answer recorded is the one every request with this key gives.
          ConditionExpression: 'attribute_exists(recordId) AND attribute_not_exists(#status)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: Object.fromEntries(
            Object.entries(answerAttributes(outcome)).map(([name, value]) => [`:${name}`, value]),
          ),
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        });
        const recorded = written.held ? written.attributes : written.current;
        const answer = recorded ? outcomeOf(recorded as unknown as StoredRecord) : undefined;
        if (!answer) throw new Error(`idempotency record ${recordId} vanished before its answer was recorded`);
        return answer;
      }),

    recordRefusal: ({ outcome, ...record }, nowSeconds) =>
      callStore(async () => {
        try {
          await client.send(
            new PutCommand({
              TableName: tables.idempotencyRecordsTable,
              Item: { ...record, ...(outcome ? answerAttributes(outcome) : {}) },
              ConditionExpression: NO_LIVE_RECORD,
              ExpressionAttributeValues: { ':now': nowSeconds },
            }),
          );
          return true;
        } catch (error) {
          if (error instanceof ConditionalCheckFailedException) return false;
          throw error;
        }
      }),
  };
}
