import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeysTable,
  changeFeedTable,
  historyTable,
  idempotencyRecordsTable,
  inventoryTable,
  usageCountersTable,
} from '../../../functions/adapters/dynamodb/tables.ts';
import { API_STAGE_NAME, STACK_NAMES, STACK_OUTPUTS } from '../../../lib/deployments.ts';
import {
  functionWithDescription,
  keySchemaOf,
  onlyResource,
  queueIds,
  resourcePath,
  resourcesOfType,
  STAGES,
  synthesizeApp,
  type SynthesizedApp,
  type TableKeys,
} from './synthesized-app.ts';

/** CloudFormation's limit on a template's size, in bytes: past it a stack cannot deploy. */
const CLOUDFORMATION_TEMPLATE_LIMIT_BYTES = 1_000_000;

const PROJECT_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

let synthesized: SynthesizedApp;
beforeAll(() => {
  synthesized = synthesizeApp();
});

describe('the CDK app', () => {
  it('has exactly a staging and a prod stack, named as the deploy scripts and the key tool expect', async () => {
    const stackArtifacts = synthesized.assembly.stacks.map((stack) => ({ id: stack.id, name: stack.stackName }));
    expect(stackArtifacts).toEqual(
      expect.arrayContaining([
        { id: 'PetStoreInventory-Staging', name: 'PetStoreInventory-Staging' },
        { id: 'PetStoreInventory-Prod', name: 'PetStoreInventory-Prod' },
      ]),
    );
    expect(stackArtifacts).toHaveLength(2);
    const packageJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'));
    for (const stage of STAGES) {
      // Each script names its stage, which the app then requires to be pinned (test/stacks/infra/stage-environments.test.ts).
      expect(packageJson.scripts[`deploy:${stage}`]).toBe(`cdk deploy ${STACK_NAMES[stage]} -c deployStage=${stage}`);
      expect(packageJson.scripts[`diff:${stage}`]).toBe(`cdk diff ${STACK_NAMES[stage]} -c deployStage=${stage}`);
    }
    expect(packageJson.scripts['destroy:staging']).toBe(`cdk destroy ${STACK_NAMES.staging} -c deployStage=staging`);
    expect(packageJson.scripts['destroy:prod']).toBeUndefined();
  });

  it("is environment-agnostic where no stage is pinned, whatever account the CLI's credentials are for", () => {
    for (const stage of STAGES) expect(synthesized.stacks[stage].environment).toBe('aws://unknown-account/unknown-region');
  });

  it('writes each template within 90% of the 1,000,000 bytes CloudFormation accepts, so a few more functions still deploy', () => {
    for (const stack of synthesized.assembly.stacks) {
      expect(statSync(stack.templateFullPath).size, stack.id).toBeLessThanOrEqual(0.9 * CLOUDFORMATION_TEMPLATE_LIMIT_BYTES);
    }
  });

  it('gives both stages the same paths and methods', () => {
    const routesOf = (stage: (typeof STAGES)[number]) => {
      const template = synthesized.templates[stage];
      return Object.values(resourcesOfType(template, 'AWS::ApiGateway::Method'))
        .map((method) => `${method.Properties!.HttpMethod} ${resourcePath(template, method.Properties!.ResourceId)}`)
        .sort();
    };
    expect(routesOf('staging')).toEqual(routesOf('prod'));
  });

  it('protects the prod stack from `cdk destroy`, not staging', () => {
    expect(synthesized.stacks.prod.terminationProtection).toBe(true);
    expect(synthesized.stacks.staging.terminationProtection).toBe(false);
  });
});

describe.each(STAGES)('the %s stage', (stage) => {
  const template = () => synthesized.templates[stage];

  it('has its own seven tables, reservations included, with names CloudFormation generates', () => {
    const tables = resourcesOfType(template(), 'AWS::DynamoDB::Table');
    expect(Object.keys(tables)).toHaveLength(7);
    for (const table of Object.values(tables)) expect(table.Properties!.TableName).toBeUndefined();
  });

  it('keys the tables as the functions and the local store do', () => {
    const key = (attribute: { name: string; type: string }) => ({
      KeySchema: [{ AttributeName: attribute.name, KeyType: 'HASH' }],
      AttributeDefinitions: Match.arrayWith([{ AttributeName: attribute.name, AttributeType: attribute.type }]),
    });
    // The inventory: pets spread over numeric shards, ordered by their numeric petId within each.
    onlyResource(template(), 'AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'shard', KeyType: 'HASH' },
        { AttributeName: 'petId', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: [
        { AttributeName: 'shard', AttributeType: 'N' },
        { AttributeName: 'petId', AttributeType: 'N' },
      ],
    });
    expect(keySchemaOf(inventoryTable)).toEqual([
      { AttributeName: inventoryTable.partitionKey.name, KeyType: 'HASH' },
      { AttributeName: inventoryTable.sortKey.name, KeyType: 'RANGE' },
    ]);
    onlyResource(template(), 'AWS::DynamoDB::Table', {
      ...key(apiKeysTable.partitionKey),
      AttributeDefinitions: [
        { AttributeName: apiKeysTable.partitionKey.name, AttributeType: apiKeysTable.partitionKey.type },
        { AttributeName: apiKeysTable.keyIdIndex.partitionKey.name, AttributeType: apiKeysTable.keyIdIndex.partitionKey.type },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: apiKeysTable.keyIdIndex.indexName,
          KeySchema: [{ AttributeName: apiKeysTable.keyIdIndex.partitionKey.name, KeyType: 'HASH' }],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    });
    onlyResource(template(), 'AWS::DynamoDB::Table', {
      ...key(usageCountersTable.partitionKey),
      TimeToLiveSpecification: { AttributeName: usageCountersTable.timeToLiveAttribute, Enabled: true },
    });
    onlyResource(template(), 'AWS::DynamoDB::Table', {
      ...key(idempotencyRecordsTable.partitionKey),
      TimeToLiveSpecification: { AttributeName: idempotencyRecordsTable.timeToLiveAttribute, Enabled: true },
    });
    // The history and the change feed: entries expire after the stage's retention.
    for (const table of [historyTable, changeFeedTable]) {
      onlyResource(template(), 'AWS::DynamoDB::Table', {
        KeySchema: keySchemaOf(table),
        AttributeDefinitions: [
          { AttributeName: table.partitionKey.name, AttributeType: table.partitionKey.type },
          { AttributeName: table.sortKey.name, AttributeType: table.sortKey.type },
        ],
        TimeToLiveSpecification: { AttributeName: table.timeToLiveAttribute, Enabled: true },
      });
    }
  });

  it('bills every table on demand and encrypts it with the AWS-managed KMS key', () => {
    for (const table of Object.values(resourcesOfType(template(), 'AWS::DynamoDB::Table'))) {
      expect(table.Properties!.BillingMode).toBe('PAY_PER_REQUEST');
      // KMS encryption with no key of ours: DynamoDB uses the aws/dynamodb key (without SSEEnabled it would be an AWS-owned key).
      expect(table.Properties!.SSESpecification).toEqual({ SSEEnabled: true });
    }
  });

  it('keeps point-in-time recovery on the inventory and keys tables', () => {
    const recoverable = { PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } };
    onlyResource(template(), 'AWS::DynamoDB::Table', { ...recoverable, KeySchema: keySchemaOf(inventoryTable) });
    onlyResource(template(), 'AWS::DynamoDB::Table', { ...recoverable, KeySchema: keySchemaOf(apiKeysTable) });
  });

  it(stage === 'prod' ? 'retains and deletion-protects every table' : 'lets every table be deleted with the stack', () => {
    for (const table of Object.values(resourcesOfType(template(), 'AWS::DynamoDB::Table'))) {
      const policy = stage === 'prod' ? 'Retain' : 'Delete';
      expect({ DeletionPolicy: table.DeletionPolicy, UpdateReplacePolicy: table.UpdateReplacePolicy }).toEqual({
        DeletionPolicy: policy,
        UpdateReplacePolicy: policy,
      });
      expect(table.Properties!.DeletionProtectionEnabled).toBe(stage === 'prod');
    }
  });

  it('outputs what the key tool needs, under stable names', () => {
    const outputs = template().toJSON().Outputs as Record<string, { Value: unknown }>;
    const refTo = (type: string, properties?: Record<string, unknown>) => ({ Ref: onlyResource(template(), type, properties)[0] });
    const tableWithKey = (table: TableKeys) => refTo('AWS::DynamoDB::Table', { KeySchema: keySchemaOf(table) });
    expect(outputs[STACK_OUTPUTS.restApiId]!.Value).toEqual(refTo('AWS::ApiGateway::RestApi'));
    expect(outputs[STACK_OUTPUTS.stageName]!.Value).toBe(API_STAGE_NAME);
    const usagePlan = (plan: string) => refTo('AWS::ApiGateway::UsagePlan', { UsagePlanName: `${STACK_NAMES[stage]}-${plan}` });
    expect(outputs[STACK_OUTPUTS.usagePlanIdFree]!.Value).toEqual(usagePlan('free'));
    expect(outputs[STACK_OUTPUTS.usagePlanIdPro]!.Value).toEqual(usagePlan('pro'));
    expect(outputs[STACK_OUTPUTS.usagePlanIdBusiness]!.Value).toEqual(usagePlan('business'));
    expect(outputs[STACK_OUTPUTS.inventoryTableName]!.Value).toEqual(tableWithKey(inventoryTable));
    expect(outputs[STACK_OUTPUTS.apiKeysTableName]!.Value).toEqual(tableWithKey(apiKeysTable));
    expect(outputs[STACK_OUTPUTS.usageCountersTableName]!.Value).toEqual(tableWithKey(usageCountersTable));
  });

  it('outputs the webhook queues the events tool needs: the delivery queue ARN, the dead letters URL and ARN', () => {
    const outputs = template().toJSON().Outputs as Record<string, { Value: unknown }>;
    const { webhookDeliveries, webhookDeadLetters } = queueIds(template());
    expect(outputs[STACK_OUTPUTS.webhookDeliveryQueueArn]!.Value).toEqual({ 'Fn::GetAtt': [webhookDeliveries, 'Arn'] });
    expect(outputs[STACK_OUTPUTS.webhookDeadLetterQueueUrl]!.Value).toEqual({ Ref: webhookDeadLetters });
    expect(outputs[STACK_OUTPUTS.webhookDeadLetterQueueArn]!.Value).toEqual({ 'Fn::GetAtt': [webhookDeadLetters, 'Arn'] });
  });

  it("outputs what the stream replay needs: the history consumer's on-failure queue URL and the consumer's name", () => {
    const outputs = template().toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs[STACK_OUTPUTS.historyFailedRecordsQueueUrl]!.Value).toEqual({ Ref: queueIds(template()).failedRecords });
    expect(outputs[STACK_OUTPUTS.historyConsumerFunctionName]!.Value).toEqual({
      Ref: functionWithDescription(template(), 'Records each inventory change')[0],
    });
  });

  it('outputs the base address, which ends in /v1', () => {
    const url = (template().toJSON().Outputs as Record<string, { Value: unknown }>)[STACK_OUTPUTS.apiUrl]!.Value;
    expect(url).toEqual({
      'Fn::Join': [
        '',
        [
          'https://',
          { Ref: onlyResource(template(), 'AWS::ApiGateway::RestApi')[0] },
          '.execute-api.',
          { Ref: 'AWS::Region' },
          '.',
          { Ref: 'AWS::URLSuffix' },
          `/${API_STAGE_NAME}`,
        ],
      ],
    });
  });
});
