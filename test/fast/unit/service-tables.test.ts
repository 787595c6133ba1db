import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  InternalServerError,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceTables, LOCAL_TABLES, tableDefinitions } from '../../../local/local-store.ts';

const dynamodb = mockClient(DynamoDBClient);
const OUTBOX = LOCAL_TABLES.webhookOutboxTable;
const [outboxIndex] = tableDefinitions(LOCAL_TABLES).find((table) => table.TableName === OUTBOX)?.GlobalSecondaryIndexes ?? [];

afterEach(() => {
  dynamodb.reset();
});

/** A data directory of the version before the outbox's index: every table is there, the outbox without its index. */
function outboxWithoutItsIndex() {
  dynamodb.on(CreateTableCommand).resolves({});
  dynamodb
    .on(CreateTableCommand, { TableName: OUTBOX })
    .rejects(new ResourceInUseException({ message: 'Table already exists', $metadata: {} }));
  dynamodb.on(UpdateTableCommand).resolves({});
}

const described = (IndexStatus?: 'CREATING' | 'ACTIVE') => ({
  Table: { TableName: OUTBOX, GlobalSecondaryIndexes: IndexStatus ? [{ IndexName: outboxIndex?.IndexName, IndexStatus }] : [] },
});

describe("adding the outbox's index to a data directory of an earlier version", () => {
  it('waits through a DescribeTable that DynamoDB Local fails with a 500 while it builds the index, until the index is ACTIVE', async () => {
    outboxWithoutItsIndex();
    dynamodb
      .on(DescribeTableCommand, { TableName: OUTBOX })
      .resolvesOnce(described())
      .rejectsOnce(new InternalServerError({ message: 'The request processing has failed', $metadata: { httpStatusCode: 500 } }))
      .resolvesOnce(described('CREATING'))
      .resolves(described('ACTIVE'));

    await createServiceTables('http://127.0.0.1:1', LOCAL_TABLES, { inventoryStream: false });

    expect(dynamodb.commandCalls(UpdateTableCommand).map((call) => call.args[0].input.GlobalSecondaryIndexUpdates)).toEqual([
      [{ Create: { IndexName: outboxIndex?.IndexName, KeySchema: outboxIndex?.KeySchema, Projection: outboxIndex?.Projection } }],
    ]);
    expect(dynamodb.commandCalls(DescribeTableCommand, { TableName: OUTBOX })).toHaveLength(4);
  });

  it('stops at a refusal of the request itself (a 4xx), which waiting does not mend', async () => {
    outboxWithoutItsIndex();
    dynamodb
      .on(DescribeTableCommand, { TableName: OUTBOX })
      .resolvesOnce(described())
      .rejects(new ResourceNotFoundException({ message: 'Cannot do operations on a non-existent table', $metadata: {} }));

    await expect(createServiceTables('http://127.0.0.1:1', LOCAL_TABLES, { inventoryStream: false })).rejects.toBeInstanceOf(
      ResourceNotFoundException,
    );
  });
});
