import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient, type NumberValue } from '@aws-sdk/lib-dynamodb';
import { StoreUnavailableError } from '../../domain/errors.ts';
import type { ConsumeResult, UsageCounterRepository, UsageWindow, WindowCounts, WindowKind } from '../../domain/usage-limits.ts';
import { callStore, updateIfConditionHolds } from './document-client.ts';

/** Counters outlive their window by an hour so that an operator can still inspect a burst. */
const KEEP_AFTER_RESET_SECONDS = 3_600;
/** Conditional writes race only with the same key's other requests; a few rounds always settle. */
const MAX_CONSUME_ROUNDS = 4;

/**
 * One item per key and UTC day counts both windows: `requests` for the day, and
 * `minuteRequests` for the minute starting at `minuteStartsAt`. One conditional write on one
 * item admits a request in both windows or in neither, so concurrent requests can never be
 * admitted past either limit, nor refused while both have room.
 */
const usageId = (keyId: string, day: UsageWindow) => `${keyId}#usage#${day.startsAt}`;
const rejectionsId = (keyId: string, minute: UsageWindow) => `${keyId}#rejections#${minute.startsAt}`;
const banId = (keyId: string) => `${keyId}#ban`;
const toNumber = (value: unknown) => (value === undefined ? 0 : Number((value as NumberValue).toString()));

function countsOf(attributes: Record<string, unknown>): WindowCounts {
  return { minute: toNumber(attributes.minuteRequests), day: toNumber(attributes.requests) };
}

export function createUsageCounterRepository(client: DynamoDBDocumentClient, tableName: string): UsageCounterRepository {
  const update = (counterId: string, expression: string, condition: string, values: Record<string, unknown>) =>
    updateIfConditionHolds(client, {
      TableName: tableName,
      Key: { counterId },
      UpdateExpression: expression,
      ConditionExpression: condition,
      ExpressionAttributeValues: values,
      ReturnValues: 'UPDATED_NEW',
      // A refused write says why in the same round trip: no read after it.
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });

  async function consume(keyId: string, requestMinute: UsageWindow, day: UsageWindow): Promise<ConsumeResult> {
    const counterId = usageId(keyId, day);
    let minute = requestMinute;
    for (let round = 0; round < MAX_CONSUME_ROUNDS; round += 1) {
      const sameMinute = await update(
        counterId,
        'ADD requests :one, minuteRequests :one',
        'minuteStartsAt = :minute AND minuteRequests < :perMinute AND requests < :perDay',
        { ':one': 1, ':minute': minute.startsAt, ':perMinute': minute.limit, ':perDay': day.limit },
      );
      if (sameMinute.held) return { admitted: true, counts: countsOf(sameMinute.attributes) };

      const stored = sameMinute.current ?? {};
      const storedMinute = toNumber(stored.minuteStartsAt);
      if (storedMinute > minute.startsAt) {
        // Another instance's clock is already in the next minute: count this request there.
        minute = { ...minute, startsAt: storedMinute, resetsAt: storedMinute + (minute.resetsAt - minute.startsAt) };
        continue;
      }
      const counts = { minute: storedMinute === minute.startsAt ? toNumber(stored.minuteRequests) : 0, day: toNumber(stored.requests) };
      const full: WindowKind[] = [];
      if (counts.minute >= minute.limit) full.push('minute');
      if (counts.day >= day.limit) full.push('day');
      if (full.length > 0) return { admitted: false, full, counts };
      // Same minute with room in both windows: another request of this key changed the item in between.
      if (storedMinute === minute.startsAt) continue;

      const newMinute = await update(
        counterId,
        'SET minuteStartsAt = :minute, minuteRequests = :one, expiresAt = :expiresAt ADD requests :one',
        '(attribute_not_exists(minuteStartsAt) OR minuteStartsAt < :minute) AND (attribute_not_exists(requests) OR requests < :perDay)',
        { ':one': 1, ':minute': minute.startsAt, ':perDay': day.limit, ':expiresAt': day.resetsAt + KEEP_AFTER_RESET_SECONDS },
      );
      if (newMinute.held) return { admitted: true, counts: countsOf(newMinute.attributes) };
      // Another request started this minute first: the next round counts in it.
    }
    throw new StoreUnavailableError({ cause: new Error(`usage counter ${counterId} kept changing under ${MAX_CONSUME_ROUNDS} rounds`) });
  }

  return {
    consume: (keyId, minute, day) => callStore(() => consume(keyId, minute, day)),

    release: (keyId, minute, day) =>
      callStore(async () => {
        const counterId = usageId(keyId, day);
        const both = await update(counterId, 'ADD requests :minusOne, minuteRequests :minusOne', 'minuteStartsAt = :minute', {
          ':minusOne': -1,
          ':minute': minute.startsAt,
        });
        // The minute has moved on since: only the day still holds the unit.
        if (!both.held) await client.send(new UpdateCommand({ TableName: tableName, Key: { counterId }, UpdateExpression: 'ADD requests :minusOne', ExpressionAttributeValues: { ':minusOne': -1 } }));
      }),

    recordRejection: (keyId, minute) =>
      callStore(async () => {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { counterId: rejectionsId(keyId, minute) },
            UpdateExpression: 'ADD rejected :one SET expiresAt = :expiresAt',
            ExpressionAttributeValues: { ':one': 1, ':expiresAt': minute.resetsAt + KEEP_AFTER_RESET_SECONDS },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        return toNumber(Attributes?.rejected);
      }),

    bannedUntil: (keyId) =>
      callStore(async () => {
        const { Item } = await client.send(
          new GetCommand({ TableName: tableName, Key: { counterId: banId(keyId) }, ConsistentRead: true, ProjectionExpression: 'bannedUntil' }),
        );
        return Item ? toNumber(Item.bannedUntil) : undefined;
      }),

    ban: (keyId, untilSeconds) =>
      callStore(async () => {
        await client.send(
          new PutCommand({ TableName: tableName, Item: { counterId: banId(keyId), bannedUntil: untilSeconds, expiresAt: untilSeconds } }),
        );
      }),

    unban: (keyId) =>
      callStore(async () => {
        await client.send(new DeleteCommand({ TableName: tableName, Key: { counterId: banId(keyId) } }));
      }),
  };
}
