import { CreateTableCommand, DynamoDBClient, ResourceInUseException, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import type { AddressInfo } from 'node:net';
import { apiKeysTable, inventoryTable, usageCountersTable } from '../adapters/dynamodb/tables.ts';

export const LOCAL_TABLES = {
  inventoryTable: 'petstore-inventory',
  apiKeysTable: 'petstore-api-keys',
  usageCountersTable: 'petstore-usage-counters',
} as const;

function tableDefinitions(): CreateTableCommandInput[] {
  const simple = (TableName: string, key: { name: string; type: 'S' | 'N' }): CreateTableCommandInput => ({
    TableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: key.name, AttributeType: key.type }],
    KeySchema: [{ AttributeName: key.name, KeyType: 'HASH' }],
  });
  const keys = simple(LOCAL_TABLES.apiKeysTable, apiKeysTable.partitionKey);
  const index = apiKeysTable.keyIdIndex;
  keys.AttributeDefinitions!.push({ AttributeName: index.partitionKey.name, AttributeType: index.partitionKey.type });
  keys.GlobalSecondaryIndexes = [
    { IndexName: index.indexName, KeySchema: [{ AttributeName: index.partitionKey.name, KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } },
  ];
  return [simple(LOCAL_TABLES.inventoryTable, inventoryTable.partitionKey), keys, simple(LOCAL_TABLES.usageCountersTable, usageCountersTable.partitionKey)];
}

export interface LocalStore {
  endpoint: string;
  close(): Promise<void>;
}

/**
 * dynalite: the DynamoDB API in this process, on loopback, kept in LevelDB under `dataDir`
 * (in memory when dataDir is undefined). Creates the service's tables when they are missing.
 */
export async function startLocalStore(dataDir?: string): Promise<LocalStore> {
  const server = dynalite({ ...(dataDir ? { path: dataDir } : {}), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    for (const definition of tableDefinitions()) {
      try {
        await client.send(new CreateTableCommand(definition));
      } catch (error) {
        if (!(error instanceof ResourceInUseException)) throw error;
      }
    }
  } finally {
    client.destroy();
  }
  return {
    endpoint,
    close: () => new Promise<void>((resolve, reject) => server.close((error?: Error) => (error ? reject(error) : resolve()))),
  };
}
