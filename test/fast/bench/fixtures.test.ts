import { expect, it } from 'vitest';
import { benchFunctionEnvironment } from '../../../bench/fixtures.ts';
import { readConfig } from '../../../functions/config.ts';
import { LOCAL_TABLES } from '../../../local/local-store.ts';

it("gives the bench's bundled functions every setting their configuration requires (a missing table stopped npm run bench)", () => {
  const config = readConfig(benchFunctionEnvironment('http://127.0.0.1:8000'));

  expect(config).toMatchObject({
    inventoryTable: LOCAL_TABLES.inventoryTable,
    apiKeysTable: LOCAL_TABLES.apiKeysTable,
    usageCountersTable: LOCAL_TABLES.usageCountersTable,
    idempotencyRecordsTable: LOCAL_TABLES.idempotencyRecordsTable,
    historyTable: LOCAL_TABLES.historyTable,
    changeFeedTable: LOCAL_TABLES.changeFeedTable,
    dynamodbEndpoint: 'http://127.0.0.1:8000',
  });
});
