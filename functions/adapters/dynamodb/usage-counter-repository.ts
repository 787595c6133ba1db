import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { StoreUnavailableError } from '../../domain/errors.ts';
import {
  MAX_BAN_SECONDS,
  type ConsumeResult,
  type UsageCounterRepository,
  type UsageWindow,
  type WindowCounts,
  type WindowKind,
} from '../../domain/plan-limiter.ts';
import { callStore, updateIfConditionHolds } from './document-client.ts';
import { DAY_SECONDS, forgettingClause, KEEP_AFTER_RESET_SECONDS, minuteAttribute, minuteOfDay, toNumber } from './minute-counts.ts';

/**
 * One item per key and UTC day counts both windows and holds the key's ban, so one conditional
 * UpdateItem checks the ban and counts a request in both windows or in neither: concurrent
 * requests can never be admitted past either limit, nor refused while both have room, and an
 * admitted request costs one write and no read.
 *
 * - `requests`: the day's count.
 * - `minute<N>`: the count of the day's minute N (0–1439). Each minute has its own attribute,
 *   which ADD creates at its first request, so a new minute needs no second write to start
 *   over. Each count removes older minutes' attributes (MINUTES_FORGOTTEN_PER_COUNT); an idle
 *   hour leaves one behind, at most 24 a day of a few bytes each, and the day's item goes.
 * - `bannedUntil`: Unix seconds. A ban is written on the item of every UTC day it reaches
 *   (creating the next day's item if needed), so a ban that spans midnight still holds.
 * - `revoked`: true once the key is revoked, on the item of every UTC day in which an authorizer
 *   may still know the key as active (KNOWN_API_KEY_SECONDS). The counting write's condition tests it, so a revocation takes
 *   effect on the key's next request at no cost to any other: no read, no extra unit.
 *
 * Beside them, `<keyId>#ban` records the latest ban for operators (list, unban), and
 * `<keyId>#rejections#<minute>` counts the 429s of a minute toward the ban threshold.
 */
const usageId = (keyId: string, dayStartsAt: number) => `${keyId}#usage#${dayStartsAt}`;
const rejectionsId = (keyId: string, minute: UsageWindow) => `${keyId}#rejections#${minute.startsAt}`;
const banId = (keyId: string) => `${keyId}#ban`;

/** The day starts of every UTC day from `fromSeconds` to `untilSeconds`. */
function daysBetween(fromSeconds: number, untilSeconds: number): number[] {
  const days: number[] = [];
  for (let dayStartsAt = fromSeconds - (fromSeconds % DAY_SECONDS); dayStartsAt <= untilSeconds; dayStartsAt += DAY_SECONDS)
    days.push(dayStartsAt);
  return days;
}

/** The day starts of every UTC day a ban ending at `untilSeconds` may reach. */
const daysOfBan = (untilSeconds: number) => daysBetween(untilSeconds - MAX_BAN_SECONDS, untilSeconds - 1);

/** The one counting write: ADD to the day and to this minute, if not revoked, not banned and both have room. */
function countingCommand(tableName: string, keyId: string, minute: UsageWindow, day: UsageWindow, nowSeconds: number): UpdateCommandInput {
  const current = minuteAttribute(minuteOfDay(minute.startsAt));
  return {
    TableName: tableName,
    Key: { counterId: usageId(keyId, day.startsAt) },
    UpdateExpression: `SET expiresAt = :expiresAt ADD requests :one, ${current} :one${forgettingClause(minute)}`,
    ConditionExpression:
      `(attribute_not_exists(${current}) OR ${current} < :perMinute) AND (attribute_not_exists(requests) OR requests < :perDay)` +
      ' AND (attribute_not_exists(bannedUntil) OR bannedUntil <= :now) AND attribute_not_exists(revoked)',
    ExpressionAttributeValues: {
      ':one': 1,
      ':perMinute': minute.limit,
      ':perDay': day.limit,
      ':now': nowSeconds,
      ':expiresAt': day.resetsAt + KEEP_AFTER_RESET_SECONDS,
    },
    ReturnValues: 'UPDATED_NEW',
    // A refused write says why in the same round trip: no read after it.
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
}

export function createUsageCounterRepository(client: DynamoDBDocumentClient, tableName: string): UsageCounterRepository {
  async function consume(keyId: string, minute: UsageWindow, day: UsageWindow, nowSeconds: number): Promise<ConsumeResult> {
    const counted = await updateIfConditionHolds(client, countingCommand(tableName, keyId, minute, day, nowSeconds));
    const current = minuteAttribute(minuteOfDay(minute.startsAt));
    const item = counted.held ? counted.attributes : (counted.current ?? {});
    const counts: WindowCounts = { minute: toNumber(item[current]), day: toNumber(item.requests) };
    if (counted.held) return { admitted: true, counts };

    if (item.revoked === true) return { admitted: false, counts, revoked: true };
    const bannedUntil = toNumber(item.bannedUntil);
    if (bannedUntil > nowSeconds) return { admitted: false, counts, bannedUntil };
    const full: WindowKind[] = [];
    if (counts.minute >= minute.limit) full.push('minute');
    if (counts.day >= day.limit) full.push('day');
    if (full.length > 0) return { admitted: false, counts, full };
    // The refused item is the one the condition saw, so one of the reasons above always shows.
    throw new StoreUnavailableError({
      cause: new Error(`usage counter ${usageId(keyId, day.startsAt)} refused a request it had room for`),
    });
  }

  /** Sets an attribute on one day's usage item, creating the item (to expire with its day) if needed. */
  const markDay = (keyId: string, dayStartsAt: number, attribute: 'bannedUntil' | 'revoked', value: number | boolean) =>
    client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { counterId: usageId(keyId, dayStartsAt) },
        UpdateExpression: `SET ${attribute} = :value, expiresAt = if_not_exists(expiresAt, :expiresAt)`,
        ExpressionAttributeValues: { ':value': value, ':expiresAt': dayStartsAt + DAY_SECONDS + KEEP_AFTER_RESET_SECONDS },
      }),
    );

  /** Sets or removes the ban on one day's usage item; removing never creates the item. */
  const setDayBan = (keyId: string, dayStartsAt: number, untilSeconds: number | undefined) =>
    untilSeconds === undefined
      ? updateIfConditionHolds(client, {
          TableName: tableName,
          Key: { counterId: usageId(keyId, dayStartsAt) },
          UpdateExpression: 'REMOVE bannedUntil',
          ConditionExpression: 'attribute_exists(counterId)',
        })
      : markDay(keyId, dayStartsAt, 'bannedUntil', untilSeconds);

  return {
    consume: (keyId, minute, day, nowSeconds) => callStore(() => consume(keyId, minute, day, nowSeconds)),

    revoke: (keyId, fromSeconds, untilSeconds) =>
      callStore(async () => {
        await Promise.all(daysBetween(fromSeconds, untilSeconds).map((dayStartsAt) => markDay(keyId, dayStartsAt, 'revoked', true)));
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
          new GetCommand({
            TableName: tableName,
            Key: { counterId: banId(keyId) },
            ConsistentRead: true,
            ProjectionExpression: 'bannedUntil',
          }),
        );
        return Item ? toNumber(Item.bannedUntil) : undefined;
      }),

    ban: (keyId, untilSeconds) =>
      callStore(async () => {
        await Promise.all([
          ...daysOfBan(untilSeconds).map((dayStartsAt) => setDayBan(keyId, dayStartsAt, untilSeconds)),
          client.send(
            new PutCommand({ TableName: tableName, Item: { counterId: banId(keyId), bannedUntil: untilSeconds, expiresAt: untilSeconds } }),
          ),
        ]);
      }),

    unban: (keyId, minute) =>
      callStore(async () => {
        await client.send(new DeleteCommand({ TableName: tableName, Key: { counterId: rejectionsId(keyId, minute) } }));
        const { Item } = await client.send(
          new GetCommand({ TableName: tableName, Key: { counterId: banId(keyId) }, ConsistentRead: true }),
        );
        if (Item) await Promise.all(daysOfBan(toNumber(Item.bannedUntil)).map((dayStartsAt) => setDayBan(keyId, dayStartsAt, undefined)));
        await client.send(new DeleteCommand({ TableName: tableName, Key: { counterId: banId(keyId) } }));
      }),
  };
}
