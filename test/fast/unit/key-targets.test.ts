import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  GetUsagePlansCommand,
  UpdateApiKeyCommand,
} from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBDocumentClient, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashApiKey } from '../../../functions/domain/api-keys.ts';
import { KNOWN_API_KEY_SECONDS } from '../../../functions/domain/known-api-keys.ts';
import { runKeysCommand } from '../../../tools/keys/cli.ts';
import { openLocalTarget, openStageTarget } from '../../../tools/keys/key-targets.ts';
import { STACK_OUTPUTS } from '../../../lib/deployments.ts';
import { awsEnvironment, stagingStackWithOutputs } from '../../support/aws-environment.ts';

const cloudFormation = mockClient(CloudFormationClient);
const apiGateway = mockClient(APIGatewayClient);
const dynamo = mockClient(DynamoDBDocumentClient);

const outputs = {
  [STACK_OUTPUTS.restApiId]: 'api123',
  [STACK_OUTPUTS.stageName]: 'v1',
  [STACK_OUTPUTS.usagePlanIdFree]: 'plan-free',
  [STACK_OUTPUTS.usagePlanIdPro]: 'plan-pro',
  [STACK_OUTPUTS.usagePlanIdBusiness]: 'plan-business',
  [STACK_OUTPUTS.apiKeysTableName]: 'Staging-ApiKeys',
  [STACK_OUTPUTS.usageCountersTableName]: 'Staging-Counters',
};

async function keys(...argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runKeysCommand(
    argv,
    (stage, dataDir) => (stage ? openStageTarget(stage) : openLocalTarget(dataDir)),
    (line) => lines.push(line),
  );
  return lines;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

beforeEach(() => {
  awsEnvironment({ AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'AKIATESTONLY', AWS_SECRET_ACCESS_KEY: 'test-only' });
  cloudFormation.reset();
  apiGateway.reset();
  dynamo.reset();
  cloudFormation.on(DescribeStacksCommand).resolves(stagingStackWithOutputs(outputs));
  apiGateway.on(CreateApiKeyCommand).resolves({ id: 'gw-key-9' });
  apiGateway.on(GetUsagePlansCommand).resolves({ items: [{ id: 'plan-pro', name: 'PetStoreInventory-Staging-pro' }] });
});

describe('npm run keys -- --stage staging', () => {
  it('finds the stage by its stack outputs, mirrors the key into API Gateway, then stores its hash', async () => {
    const lines = await keys('issue', '--stage', 'staging', '--plan', 'pro', '--owner', 'Acme');

    const apiKey = /: ([A-Za-z0-9]{43})$/.exec(lines[1]!)![1]!;
    expect(cloudFormation).toHaveReceivedCommandWith(DescribeStacksCommand, { StackName: 'PetStoreInventory-Staging' });
    expect(apiGateway).toHaveReceivedCommandWith(CreateApiKeyCommand, { value: apiKey, enabled: true });
    expect(apiGateway).toHaveReceivedCommandWith(CreateUsagePlanKeyCommand, {
      usagePlanId: 'plan-pro',
      keyId: 'gw-key-9',
      keyType: 'API_KEY',
    });
    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      TableName: 'Staging-ApiKeys',
      Item: expect.objectContaining({ keyHash: hashApiKey(apiKey), plan: 'pro', status: 'active', gatewayKeyId: 'gw-key-9' }),
    });
    expect(JSON.stringify(dynamo.commandCalls(PutCommand)[0]!.args[0].input)).not.toContain(apiKey);
  });

  it('revokes in the keys table at once, and disables the gateway key a minute later, once no authorizer still knows the key', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    dynamo.on(QueryCommand).resolves({
      Items: [{ keyHash: 'h', keyId: 'key_acme', owner: 'Acme', plan: 'pro', status: 'active', createdAt: 'x', gatewayKeyId: 'gw-key-9' }],
    });

    try {
      const revoking = keys('revoke', 'key_acme', '--stage', 'staging');
      await vi.advanceTimersByTimeAsync(KNOWN_API_KEY_SECONDS * 1_000 - 1);

      expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
        TableName: 'Staging-ApiKeys',
        Key: { keyHash: 'h' },
        ExpressionAttributeValues: { ':v0': 'revoked' },
      });
      // Sooner, a request an authorizer allows from memory would meet the disabled key: API Gateway's static 401, no X-RateLimit-Reset.
      expect(apiGateway).toHaveReceivedCommandTimes(UpdateApiKeyCommand, 0);

      await vi.advanceTimersByTimeAsync(1);
      const lines = await revoking;

      expect(apiGateway).toHaveReceivedCommandWith(UpdateApiKeyCommand, { apiKey: 'gw-key-9' });
      expect(lines).toEqual([
        'Revoked key_acme. It is refused from its next request on, locally and on AWS.',
        `Disabling its API Gateway key in ${KNOWN_API_KEY_SECONDS} s, once no authorizer still knows the key as active...`,
        'API Gateway key disabled.',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says which output is missing when the stack is not deployed as expected', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves({
      Stacks: [{ StackName: 'PetStoreInventory-Prod', CreationTime: new Date(), StackStatus: 'CREATE_COMPLETE', Outputs: [] }],
    });

    await expect(keys('list', '--stage', 'prod')).rejects.toThrow(
      'Stack PetStoreInventory-Prod has no output RestApiId; deploy it first (npm run deploy:prod).',
    );
  });

  it('refuses a stage that does not exist', async () => {
    await expect(keys('list', '--stage', 'dev')).rejects.toThrow('--stage must be one of staging, prod (got "dev").');
  });

  it('names AWS_REGION and the guide section when no region is set, before any AWS call', async () => {
    awsEnvironment({ AWS_ACCESS_KEY_ID: 'AKIATESTONLY', AWS_SECRET_ACCESS_KEY: 'test-only' });

    await expect(keys('list', '--stage', 'staging')).rejects.toThrow(
      '--stage staging needs an AWS region: set AWS_REGION (or a region in the profile AWS_PROFILE names); see docs/deploying-and-operating.md, "AWS credentials and permissions".',
    );
    expect(cloudFormation.calls()).toHaveLength(0);
  });

  it('names AWS_PROFILE and the guide section when no credentials are found, before any AWS call', async () => {
    awsEnvironment({ AWS_REGION: 'eu-west-1' });

    await expect(keys('list', '--stage', 'prod')).rejects.toThrow(
      /^--stage prod needs AWS credentials: set AWS_PROFILE to a profile of the prod account, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY \(.+\); see docs\/deploying-and-operating\.md, "AWS credentials and permissions"\.$/,
    );
    expect(cloudFormation.calls()).toHaveLength(0);
  });

  it('says which stack is missing, in which region, when the stage was never deployed there', async () => {
    cloudFormation
      .on(DescribeStacksCommand)
      .rejects(Object.assign(new Error('Stack with id PetStoreInventory-Staging does not exist'), { name: 'ValidationError' }));

    await expect(keys('list', '--stage', 'staging')).rejects.toThrow(
      'Stack PetStoreInventory-Staging does not exist in eu-west-1 for these credentials; deploy it (npm run deploy:staging) or check AWS_PROFILE and AWS_REGION.',
    );
  });
});
