/**
 * The cold-start floor: a Lambda function that only imports and constructs a DynamoDB
 * document client, and whose invocation is one GetItem. The SDK's first-call work
 * (endpoint resolution, signing, a connection) is in its first invocation as in ours.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { inventoryKey } from '../../functions/adapters/dynamodb/stored-inventory-item.ts';
import { bareDocumentClient } from './bare-document-client.ts';

const client = bareDocumentClient();

export const handler = async () => {
  const { Item } = await client.send(new GetCommand({ TableName: process.env.INVENTORY_TABLE, Key: inventoryKey(1n) }));
  return { statusCode: Item ? 200 : 404, body: '' };
};
