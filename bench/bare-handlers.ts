import { GetCommand, NumberValue, paginateQuery, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { createHash } from 'node:crypto';
import { INVENTORY_ITEM_PROJECTION } from '../functions/adapters/dynamodb/inventory-repository.ts';
import { INVENTORY_PAGE_SIZE } from '../functions/adapters/dynamodb/stored-inventory-item.ts';
import { INVENTORY_SHARDS, inventoryKey } from '../functions/adapters/dynamodb/stored-inventory-item.ts';
import { inventoryTable } from '../functions/adapters/dynamodb/tables.ts';

/**
 * The floor the service is compared with: the same DynamoDB call and the same answer, written
 * as plainly as it can be (no Middy, zod, plan limits, error mapping or streaming). It trusts
 * its input, so it only serves the requests the benchmarks send: pets that exist.
 */
interface BareResponse {
  statusCode: number;
  body: string;
}

const numbersAsJson = (_key: string, value: unknown) => (value instanceof NumberValue ? JSON.rawJSON(value.toString()) : value);

/** One plain counting write, as the plan limits make one per request: the SDK's cost of exactly that call. */
export function bareCountingCall(client: DynamoDBDocumentClient, tableName: string, keyId: string) {
  return client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: { counterId: keyId },
      UpdateExpression: 'ADD requests :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
}

export async function bareListInventory(client: DynamoDBDocumentClient, tableName: string): Promise<BareResponse> {
  // The same reads as the service: every shard's pages, consistent; then one sort and one string, all in memory.
  const shards = await Promise.all(
    INVENTORY_SHARDS.map(async (shard) => {
      const items: { petId: bigint; item: Record<string, unknown> }[] = [];
      const pages = paginateQuery(
        { client, pageSize: INVENTORY_PAGE_SIZE },
        {
          TableName: tableName,
          KeyConditionExpression: '#shard = :shard',
          ExpressionAttributeNames: { '#shard': inventoryTable.partitionKey.name, ...INVENTORY_ITEM_PROJECTION.ExpressionAttributeNames },
          ExpressionAttributeValues: { ':shard': shard },
          ProjectionExpression: INVENTORY_ITEM_PROJECTION.ProjectionExpression,
          ConsistentRead: true,
        },
      );
      for await (const page of pages) {
        for (const item of page.Items ?? []) items.push({ petId: BigInt(String(item.petId)), item });
      }
      return items;
    }),
  );
  const items = shards.flat();
  // Sorted by petId like the service's answer, so both produce the same body.
  items.sort((a, b) => (a.petId < b.petId ? -1 : a.petId > b.petId ? 1 : 0));
  return {
    statusCode: 200,
    body: JSON.stringify(
      items.map(({ item }) => item),
      numbersAsJson,
    ),
  };
}

export async function bareUpdateInventory(
  client: DynamoDBDocumentClient,
  tableName: string,
  petIdText: string,
  bodyText: string,
): Promise<BareResponse> {
  const { quantity } = JSON.parse(bodyText) as { quantity: number };
  const { Attributes } = await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: inventoryKey(BigInt(petIdText)),
      UpdateExpression: 'SET quantity = :quantity',
      ConditionExpression: 'attribute_exists(petId)',
      ExpressionAttributeValues: { ':quantity': quantity },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return { statusCode: 200, body: JSON.stringify(Attributes, numbersAsJson) };
}

export async function bareGetPet(client: DynamoDBDocumentClient, tableName: string, petIdText: string): Promise<BareResponse> {
  const { Item } = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: inventoryKey(BigInt(petIdText)),
      ProjectionExpression: 'petId, #status',
      ExpressionAttributeNames: { '#status': 'status' },
    }),
  );
  return { statusCode: 200, body: JSON.stringify({ id: Item!.petId, status: Item!.status }, numbersAsJson) };
}

export async function bareAuthorize(
  client: DynamoDBDocumentClient,
  tableName: string,
  authorization: string,
  methodArn: string,
): Promise<APIGatewayAuthorizerResult> {
  const keyHash = createHash('sha256').update(authorization.slice('Bearer '.length)).digest('hex');
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: { keyHash }, ConsistentRead: true }));
  if (Item?.status !== 'active') throw new Error('Unauthorized');
  return {
    principalId: String(Item.keyId),
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: methodArn }] },
  };
}
