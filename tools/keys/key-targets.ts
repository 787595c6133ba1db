import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { mkdir } from 'node:fs/promises';
import { createApiKeyRepository } from '../../functions/adapters/dynamodb/api-key-repository.ts';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../functions/adapters/dynamodb/document-client.ts';
import { createUsageCounterRepository } from '../../functions/adapters/dynamodb/usage-counter-repository.ts';
import { runningServer } from '../../local/local-app.ts';
import { createServiceTables, LOCAL_TABLES, startLocalStore } from '../../local/local-store.ts';
import { createGatewayKeys } from './gateway-keys.ts';
import { KeyAdmin } from '../../local/key-admin.ts';
import { API_STAGE_NAME, STACK_NAMES, STACK_OUTPUTS, type DeploymentStage } from '../../lib/deployments.ts';

export interface KeyTarget {
  admin: KeyAdmin;
  describe: string;
  close(): Promise<void>;
}

/** A store an operator tool works on, local or deployed: the tools build their repositories on its client. */
export interface StoreConnection {
  client: DynamoDBDocumentClient;
  describe: string;
  close(): Promise<void>;
}

/** Where the guide tells an operator how to give the tools AWS access. */
export const AWS_ACCESS_GUIDE_SECTION = 'docs/deploying-and-operating.md, "AWS credentials and permissions"';

/**
 * The local store under dataDir. While `npm start` runs it holds the store's lock, so the tool
 * talks to the server's store over its endpoint instead of opening the files a second time.
 */
export async function openLocalStore(dataDir: string): Promise<StoreConnection> {
  const running = await runningServer(dataDir);
  const shared = running !== undefined;
  // A fresh clone has no data directory until something makes it: the tools may come before npm start.
  if (!shared) await mkdir(dataDir, { recursive: true });
  const store = running ? { endpoint: running.endpoint, close: async () => undefined } : await startLocalStore({ dataDir });
  await createServiceTables(store.endpoint, LOCAL_TABLES);
  const client = createDocumentClient({ endpoint: store.endpoint });
  return {
    client,
    describe: `local store in ${dataDir}${shared ? ' (through the running server)' : ''}`,
    async close() {
      client.destroy();
      await store.close();
    },
  };
}

export async function openLocalTarget(dataDir: string): Promise<KeyTarget> {
  const { client, describe, close } = await openLocalStore(dataDir);
  return {
    admin: new KeyAdmin(
      createApiKeyRepository(client, LOCAL_TABLES.apiKeysTable),
      createUsageCounterRepository(client, LOCAL_TABLES.usageCountersTable),
    ),
    describe,
    close,
  };
}

/**
 * Fails in one line, before any call, when the AWS SDK finds no region or no credentials: its
 * own messages ("Region is missing", "Could not load credentials from any providers") do not
 * say what to set.
 */
export async function checkAwsAccess(stage: DeploymentStage): Promise<void> {
  const probe = new CloudFormationClient({});
  try {
    const region = await probe.config.region().catch(() => undefined);
    if (!region)
      throw new Error(
        `--stage ${stage} needs an AWS region: set AWS_REGION (or a region in the profile AWS_PROFILE names); see ${AWS_ACCESS_GUIDE_SECTION}.`,
      );
    await probe.config.credentials().catch((error: unknown) => {
      const detail = error instanceof Error ? ` (${error.message.split('\n')[0]})` : '';
      throw new Error(
        `--stage ${stage} needs AWS credentials: set AWS_PROFILE to a profile of the ${stage} account, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY${detail}; see ${AWS_ACCESS_GUIDE_SECTION}.`,
      );
    });
  } finally {
    probe.destroy();
  }
}

/** A deployed stage's stack outputs, by name; a missing one says to deploy the stage. */
export interface StageOutputs {
  stackName: string;
  output(name: string): string;
  optionalOutput(name: string): string | undefined;
}

/** A deployed stage, found through its CloudFormation stack's outputs; uses the caller's AWS credentials. */
export async function readStageOutputs(stage: DeploymentStage): Promise<StageOutputs> {
  await checkAwsAccess(stage);
  const stackName = STACK_NAMES[stage];
  const cloudFormation = new CloudFormationClient({});
  const { Stacks } = await cloudFormation
    .send(new DescribeStacksCommand({ StackName: stackName }))
    .catch(async (error: unknown) => {
      if (!(error instanceof Error && error.name === 'ValidationError')) throw error;
      const region = await cloudFormation.config.region();
      throw new Error(
        `Stack ${stackName} does not exist in ${region} for these credentials; deploy it (npm run deploy:${stage}) or check AWS_PROFILE and AWS_REGION.`,
      );
    })
    .finally(() => cloudFormation.destroy());
  const outputs = new Map((Stacks?.[0]?.Outputs ?? []).map((output) => [output.OutputKey, output.OutputValue]));
  return {
    stackName,
    output(name) {
      const value = outputs.get(name);
      if (!value) throw new Error(`Stack ${stackName} has no output ${name}; deploy it first (npm run deploy:${stage}).`);
      return value;
    },
    optionalOutput: (name) => outputs.get(name),
  };
}

export async function openStageTarget(stage: DeploymentStage): Promise<KeyTarget> {
  const { stackName, output, optionalOutput } = await readStageOutputs(stage);
  const client = createDocumentClient();
  const apiGateway = new APIGatewayClient({});
  const gateway = createGatewayKeys(apiGateway, {
    restApiId: output(STACK_OUTPUTS.restApiId),
    stageName: optionalOutput(STACK_OUTPUTS.stageName) ?? API_STAGE_NAME,
    usagePlanIds: {
      free: output(STACK_OUTPUTS.usagePlanIdFree),
      pro: output(STACK_OUTPUTS.usagePlanIdPro),
      business: output(STACK_OUTPUTS.usagePlanIdBusiness),
    },
  });
  return {
    admin: new KeyAdmin(
      createApiKeyRepository(client, output(STACK_OUTPUTS.apiKeysTableName)),
      createUsageCounterRepository(client, output(STACK_OUTPUTS.usageCountersTableName)),
      gateway,
    ),
    describe: `stage ${stage} (${stackName})`,
    async close() {
      client.destroy();
      apiGateway.destroy();
    },
  };
}
