import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  paginateScan,
  type DynamoDBDocumentClient,
  type NumberValue,
} from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord, ApiKeyRepository } from '../../domain/api-keys.ts';
import type { PlanLimits } from '../../domain/plans.ts';
import { callStore } from './document-client.ts';
import { apiKeysTable } from './tables.ts';

/** Operator-side access to keys (the key tool); request-time code only needs findByHash. */
export interface ApiKeyAdminRepository extends ApiKeyRepository {
  create(record: ApiKeyRecord): Promise<void>;
  findByKeyId(keyId: string): Promise<ApiKeyRecord | undefined>;
  list(): Promise<ApiKeyRecord[]>;
  /** Sets the given fields; a field given as null is removed. */
  update(keyHash: string, changes: ApiKeyChanges): Promise<void>;
  delete(keyHash: string): Promise<void>;
}

export type ApiKeyChanges = {
  [Field in 'plan' | 'status' | 'customLimits' | 'gatewayKeyId']?: ApiKeyRecord[Field] | null;
};

interface StoredLimits {
  perMinute: NumberValue;
  perDay: NumberValue;
}

function toRecord(stored: Record<string, unknown>): ApiKeyRecord {
  const { customLimits, ...rest } = stored as Omit<ApiKeyRecord, 'customLimits'> & { customLimits?: StoredLimits };
  const record: ApiKeyRecord = { ...rest };
  if (customLimits) record.customLimits = toLimits(customLimits);
  return record;
}

function toLimits(stored: StoredLimits): PlanLimits {
  return { perMinute: Number(stored.perMinute.toString()), perDay: Number(stored.perDay.toString()) };
}

export function createApiKeyRepository(client: DynamoDBDocumentClient, tableName: string): ApiKeyAdminRepository {
  return {
    findByHash: (keyHash) =>
      callStore(async () => {
        // Strongly consistent, so an authorizer that reads the key after a revocation sees it.
        const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: { keyHash }, ConsistentRead: true }));
        return Item ? toRecord(Item) : undefined;
      }),

    create: (record) =>
      callStore(async () => {
        await client.send(new PutCommand({ TableName: tableName, Item: record, ConditionExpression: 'attribute_not_exists(keyHash)' }));
      }),

    findByKeyId: (keyId) =>
      callStore(async () => {
        const { Items } = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: apiKeysTable.keyIdIndex.indexName,
            KeyConditionExpression: 'keyId = :keyId',
            ExpressionAttributeValues: { ':keyId': keyId },
          }),
        );
        const found = Items?.[0];
        return found ? toRecord(found) : undefined;
      }),

    list: () =>
      callStore(async () => {
        const records: ApiKeyRecord[] = [];
        for await (const page of paginateScan({ client }, { TableName: tableName })) {
          for (const item of page.Items ?? []) records.push(toRecord(item));
        }
        return records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      }),

    update: (keyHash, changes) =>
      callStore(async () => {
        const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
        const names = Object.fromEntries(entries.map(([name], index) => [`#f${index}`, name]));
        const toSet = entries.flatMap(([, value], index) => (value === null ? [] : [[index, value] as const]));
        const toRemove = entries.flatMap(([, value], index) => (value === null ? [`#f${index}`] : []));
        const clauses = [
          toSet.length > 0 ? `SET ${toSet.map(([index]) => `#f${index} = :v${index}`).join(', ')}` : '',
          toRemove.length > 0 ? `REMOVE ${toRemove.join(', ')}` : '',
        ].filter(Boolean);
        if (clauses.length === 0) return;
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { keyHash },
            UpdateExpression: clauses.join(' '),
            ConditionExpression: 'attribute_exists(keyHash)',
            ExpressionAttributeNames: names,
            ...(toSet.length > 0
              ? { ExpressionAttributeValues: Object.fromEntries(toSet.map(([index, value]) => [`:v${index}`, value])) }
              : {}),
          }),
        );
      }),

    delete: (keyHash) =>
      callStore(async () => {
        await client.send(new DeleteCommand({ TableName: tableName, Key: { keyHash } }));
      }),
  };
}
