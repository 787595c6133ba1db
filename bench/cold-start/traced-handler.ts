/**
 * The cold-start floor traced: the baseline's one GetItem through a document client whose
 * DynamoDB client Powertools for AWS Lambda's Tracer (@aws-lambda-powertools/tracer) captures,
 * so that each call is an X-Ray subsegment, as the service's functions would trace DynamoDB.
 * Tracer is on only in a Lambda environment (AWS_EXECUTION_ENV, LAMBDA_TASK_ROOT, the invocation's
 * _X_AMZN_TRACE_ID): bench/tracing.ts sets them, and no X-Ray daemon listens, as none does here.
 */
import { Tracer } from '@aws-lambda-powertools/tracer';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { inventoryKey } from '../../functions/adapters/dynamodb/stored-inventory-item.ts';
import { bareDocumentClient } from './bare-document-client.ts';

const tracer = new Tracer({ serviceName: 'petstore-inventory' });
const client = bareDocumentClient();
// The document client sends through the DynamoDB client it wraps: capturing that one traces every call.
tracer.captureAWSv3Client(client);

export const handler = async () => {
  const { Item } = await client.send(new GetCommand({ TableName: process.env.INVENTORY_TABLE, Key: inventoryKey(1n) }));
  return { statusCode: Item ? 200 : 404, body: '' };
};
