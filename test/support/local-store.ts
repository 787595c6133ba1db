import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { createDependencies, type ServiceDependencies } from '../../local/service-dependencies.ts';
import { DEFAULT_BAN_POLICY, type BanPolicy } from '../../functions/domain/plan-limiter.ts';
import { adminClient, createServiceTables, LOCAL_TABLES, type ServiceTableNames } from '../../local/local-store.ts';

export interface TestStore {
  endpoint: string;
  tables: ServiceTableNames;
  dependencies: ServiceDependencies;
  close(): Promise<void>;
}

/** The test run's DynamoDB Local engine (test/global-setup.ts). */
export function sharedStore(): { endpoint: string } {
  return { endpoint: inject('storeEndpoint') };
}

/** The tables this test file named, deleted after it (test/setup.ts). */
const namedTables = new Set<string>();

/**
 * Deletes the tables this file made on the shared engine. Kept to the end of the run, they slowed
 * the engine down as they piled up (hundreds of tables, dozens with streams): a batch write that
 * takes 40 s on a fresh engine took over 180 s late in a run.
 */
export async function deleteTestTables(): Promise<void> {
  if (namedTables.size === 0) return;
  const client = adminClient(sharedStore().endpoint);
  try {
    await Promise.all(
      [...namedTables].map((TableName) =>
        client.send(new DeleteTableCommand({ TableName })).catch((error: unknown) => {
          if (!(error instanceof ResourceNotFoundException)) throw error;
        }),
      ),
    );
    namedTables.clear();
  } finally {
    client.destroy();
  }
}

/** Names no other test uses, so tests share the engine and never each other's data. */
export function uniqueTables(): ServiceTableNames {
  const suffix = randomUUID().slice(0, 8);
  const tables = {
    inventoryTable: `${LOCAL_TABLES.inventoryTable}-${suffix}`,
    apiKeysTable: `${LOCAL_TABLES.apiKeysTable}-${suffix}`,
    usageCountersTable: `${LOCAL_TABLES.usageCountersTable}-${suffix}`,
    idempotencyRecordsTable: `${LOCAL_TABLES.idempotencyRecordsTable}-${suffix}`,
    reservationsTable: `${LOCAL_TABLES.reservationsTable}-${suffix}`,
    historyTable: `${LOCAL_TABLES.historyTable}-${suffix}`,
    changeFeedTable: `${LOCAL_TABLES.changeFeedTable}-${suffix}`,
    webhookOutboxTable: `${LOCAL_TABLES.webhookOutboxTable}-${suffix}`,
  };
  for (const name of Object.values(tables)) namedTables.add(name);
  return tables;
}

/**
 * Fresh tables on the shared DynamoDB Local, and the service's adapters over them. Nothing reads
 * the inventory's stream here, so its tables have none: the shared engine slows down with every
 * stream record it keeps (TableOptions).
 */
export async function startTestStore(banPolicy: BanPolicy = DEFAULT_BAN_POLICY): Promise<TestStore> {
  const { endpoint } = sharedStore();
  const tables = uniqueTables();
  await createServiceTables(endpoint, tables, { inventoryStream: false });
  const dependencies = createDependencies({ ...tables, dynamodbEndpoint: endpoint, banPolicy });
  return {
    endpoint,
    tables,
    dependencies,
    async close() {
      dependencies.close();
    },
  };
}

/**
 * What startLocalApp needs to serve from fresh tables on the shared engine. Its changes are
 * recorded (history, feed, webhooks) only for a test that says it reads them: the shared engine
 * slows down with every stream record it keeps (TableOptions).
 */
export function testAppStore({ recordChanges = false }: { recordChanges?: boolean } = {}): {
  store: { endpoint: string };
  tables: ServiceTableNames;
  recordChanges: boolean;
} {
  return { store: sharedStore(), tables: uniqueTables(), recordChanges };
}
