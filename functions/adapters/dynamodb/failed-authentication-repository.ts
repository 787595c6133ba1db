import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { FailedAuthenticationStore } from '../../domain/failed-authentications.ts';
import type { UsageWindow } from '../../domain/plan-limiter.ts';
import { callStore, updateIfConditionHolds } from './document-client.ts';
import { DAY_SECONDS, forgettingClause, KEEP_AFTER_RESET_SECONDS, minuteAttribute, minuteOfDay, toNumber } from './minute-counts.ts';

/**
 * Failed authentications per source address, in the same table and the same design as the
 * keys' usage: one item per address and UTC day (`address#<ip>#<day start>`), the failures of
 * minute N in `minute<N>`, counted by one conditional UpdateItem that refuses a full minute; and
 * `knownKeys`, the (shortened) hashes of the keys that authenticated from the address that day.
 */
const addressId = (address: string, minute: UsageWindow) => `address#${address}#${minute.startsAt - (minute.startsAt % DAY_SECONDS)}`;
const dayEndOf = (minute: UsageWindow) => minute.startsAt - (minute.startsAt % DAY_SECONDS) + DAY_SECONDS;
/** 128 bits of the key's SHA-256 identify it among one address's keys, at half the bytes. */
const knownKeyOf = (keyHash: string) => keyHash.slice(0, 32);

export function createFailedAuthenticationRepository(client: DynamoDBDocumentClient, tableName: string): FailedAuthenticationStore {
  return {
    countFailure: (address, minute) =>
      callStore(async () => {
        const current = minuteAttribute(minuteOfDay(minute.startsAt));
        const counted = await updateIfConditionHolds(client, {
          TableName: tableName,
          Key: { counterId: addressId(address, minute) },
          UpdateExpression: `SET expiresAt = :expiresAt ADD ${current} :one${forgettingClause(minute)}`,
          ConditionExpression: `attribute_not_exists(${current}) OR ${current} < :perMinute`,
          ExpressionAttributeValues: { ':one': 1, ':perMinute': minute.limit, ':expiresAt': dayEndOf(minute) + KEEP_AFTER_RESET_SECONDS },
          ReturnValues: 'UPDATED_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        });
        const item = counted.held ? counted.attributes : (counted.current ?? {});
        return { counted: counted.held, failures: toNumber(item[current]) };
      }),

    standing: (address, minute, keyHash) =>
      callStore(async () => {
        const current = minuteAttribute(minuteOfDay(minute.startsAt));
        const { Item } = await client.send(
          new GetCommand({
            TableName: tableName,
            Key: { counterId: addressId(address, minute) },
            ConsistentRead: true,
            ProjectionExpression: `${current}, knownKeys`,
          }),
        );
        const knownKeys = Item?.knownKeys as Set<string> | undefined;
        return { failures: toNumber(Item?.[current]), knowsKey: knownKeys?.has(knownKeyOf(keyHash)) ?? false };
      }),

    rememberKey: (address, minute, keyHash) =>
      callStore(async () => {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { counterId: addressId(address, minute) },
            UpdateExpression: 'ADD knownKeys :key SET expiresAt = if_not_exists(expiresAt, :expiresAt)',
            ExpressionAttributeValues: {
              ':key': new Set([knownKeyOf(keyHash)]),
              ':expiresAt': dayEndOf(minute) + KEEP_AFTER_RESET_SECONDS,
            },
          }),
        );
      }),
  };
}
