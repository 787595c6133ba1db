import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient, type NumberValue } from '@aws-sdk/lib-dynamodb';
import type { UsageCounterStore, UsageWindow } from '../../domain/usage-limits.ts';
import { callStore, updateIfConditionHolds } from './document-client.ts';

/** Counters outlive their window by an hour so that an operator can still inspect a burst. */
const KEEP_AFTER_RESET_SECONDS = 3_600;

const counterId = (keyId: string, window: UsageWindow) => `${keyId}#${window.kind}#${window.startsAt}`;
const banId = (keyId: string) => `${keyId}#ban`;
const toNumber = (value: unknown) => Number((value as NumberValue).toString());

export function createUsageCounterRepository(client: DynamoDBDocumentClient, tableName: string): UsageCounterStore {
  const add = async (id: string, attribute: 'requests' | 'rejected', amount: number, expiresAt: number) => {
    const { Attributes } = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { counterId: id },
        UpdateExpression: 'ADD #attribute :amount SET expiresAt = :expiresAt',
        ExpressionAttributeNames: { '#attribute': attribute },
        ExpressionAttributeValues: { ':amount': amount, ':expiresAt': expiresAt },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return toNumber(Attributes?.[attribute]);
  };

  return {
    consume: (keyId, window) =>
      callStore(async () => {
        const counted = await updateIfConditionHolds(client, {
          TableName: tableName,
          Key: { counterId: counterId(keyId, window) },
          UpdateExpression: 'ADD requests :one SET expiresAt = :expiresAt',
          // The limit is enforced by the write itself, so concurrent requests cannot overshoot it.
          ConditionExpression: 'attribute_not_exists(requests) OR requests < :limit',
          ExpressionAttributeValues: { ':one': 1, ':limit': window.limit, ':expiresAt': window.resetsAt + KEEP_AFTER_RESET_SECONDS },
          ReturnValues: 'UPDATED_NEW',
        });
        return counted ? toNumber(counted.requests) : undefined;
      }),

    release: (keyId, window) =>
      callStore(async () => {
        await add(counterId(keyId, window), 'requests', -1, window.resetsAt + KEEP_AFTER_RESET_SECONDS);
      }),

    recordRejection: (keyId, minute) =>
      callStore(() => add(counterId(keyId, minute), 'rejected', 1, minute.resetsAt + KEEP_AFTER_RESET_SECONDS)),

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
