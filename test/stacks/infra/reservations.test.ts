import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { inventoryTable, RESERVATION_RETENTION_DAYS, reservationsTable } from '../../../functions/adapters/dynamodb/tables.ts';
import { reservationSweepLambda } from '../../../functions/routes.ts';
import { keySchemaOf, onlyResource, STAGES, synthesizeApp, type SynthesizedApp } from './synthesized-app.ts';

/** What reservations need on AWS: their table and its index of the active ones, and the sweep every minute with exactly its rights. */

let synthesized: SynthesizedApp;
beforeAll(() => {
  synthesized = synthesizeApp();
});

describe.each(STAGES)('reservations on %s', (stage) => {
  const template = (): Template => synthesized.templates[stage];
  const reservationsTableId = () => onlyResource(template(), 'AWS::DynamoDB::Table', { KeySchema: keySchemaOf(reservationsTable) })[0];
  const inventoryTableId = () => onlyResource(template(), 'AWS::DynamoDB::Table', { KeySchema: keySchemaOf(inventoryTable) })[0];

  it('keeps the records recoverable, encrypted, deleted by TTL, with a keys-only index of the active ones by expiresAt', () => {
    const [, table] = onlyResource(template(), 'AWS::DynamoDB::Table', { KeySchema: keySchemaOf(reservationsTable) });
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
      TimeToLiveSpecification: { AttributeName: reservationsTable.timeToLiveAttribute, Enabled: true },
      GlobalSecondaryIndexes: [
        {
          IndexName: reservationsTable.dueIndex.indexName,
          KeySchema: [
            { AttributeName: reservationsTable.dueIndex.partitionKey.name, KeyType: 'HASH' },
            { AttributeName: reservationsTable.dueIndex.sortKey.name, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ],
    });
    expect(RESERVATION_RETENTION_DAYS).toBeGreaterThanOrEqual(7);
  });

  it('runs the sweep every minute, once per run', () => {
    const [functionId] = onlyResource(template(), 'AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^Records the expiry of reservations'),
    });
    template().hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [functionId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })],
    });
    expect(reservationSweepLambda).toBe('expire-reservations');
  });

  it("grants the sweep a Query of the index only, the records' GetItem and UpdateItem, and the inventory's UpdateItem", () => {
    const [functionId, sweep] = onlyResource(template(), 'AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^Records the expiry of reservations'),
    });
    const roleId = (sweep.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const statements = Object.values(template().findResources('AWS::IAM::Policy'))
      .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
      .filter((statement) => JSON.stringify(statement.Action).includes('dynamodb:'));
    const granted = statements.map((statement) => ({
      actions: [statement.Action].flat().sort(),
      resource: JSON.stringify(statement.Resource),
    }));
    expect(granted).toHaveLength(3);
    expect(granted).toContainEqual({
      actions: ['dynamodb:Query'],
      resource: expect.stringContaining(`/index/${reservationsTable.dueIndex.indexName}`),
    });
    expect(granted).toContainEqual({
      actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
      resource: JSON.stringify({ 'Fn::GetAtt': [reservationsTableId(), 'Arn'] }),
    });
    expect(granted).toContainEqual({
      actions: ['dynamodb:UpdateItem'],
      resource: JSON.stringify({ 'Fn::GetAtt': [inventoryTableId(), 'Arn'] }),
    });
    expect(functionId).toBeDefined();
  });
});
