/**
 * The listing's cold-start floor: the same store calls as the listing (one counting write
 * through a client of its own, then one Query per shard, every page, in parallel) written as
 * plainly as they can be (bench/bare-handlers.ts), with no Middy, plan limits, streaming or
 * error mapping. Against it the listing's ratio measures our code, not its extra connections.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ENV } from '../../functions/config.ts';
import { bareListInventory } from '../bare-handlers.ts';

const endpoint = process.env.DYNAMODB_ENDPOINT;
const documentClient = () =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient(endpoint ? { endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  );
const client = documentClient();
const countingClient = documentClient();

export const handler = async () => {
  await countingClient.send(
    new UpdateCommand({
      TableName: process.env[ENV.usageCountersTable],
      Key: { counterId: 'key_bench' },
      UpdateExpression: 'ADD requests :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
  return bareListInventory(client, process.env[ENV.inventoryTable]!);
};
