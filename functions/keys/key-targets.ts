import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { createApiKeyRepository } from '../adapters/dynamodb/api-key-repository.ts';
import { createDocumentClient } from '../adapters/dynamodb/document-client.ts';
import { createUsageCounterRepository } from '../adapters/dynamodb/usage-counter-repository.ts';
import { runningServer } from '../local/local-app.ts';
import { createServiceTables, LOCAL_TABLES, startLocalStore } from '../local/local-store.ts';
import { createGatewayKeys } from './gateway-keys.ts';
import { KeyAdmin } from './key-admin.ts';
import { API_STAGE_NAME, STACK_NAMES, STACK_OUTPUTS, type DeploymentStage } from '../deployments.ts';


export interface KeyTarget {
  admin: KeyAdmin;
  describe: string;
  close(): Promise<void>;
}

/**
 * The local store under dataDir. While `npm start` runs it holds the store's lock, so the tool
 * talks to the server's store over its endpoint instead of opening the files a second time.
 */
export async function openLocalTarget(dataDir: string): Promise<KeyTarget> {
  const running = await runningServer(dataDir);
  const shared = running !== undefined;
  const store = running ? { endpoint: running.endpoint, close: async () => undefined } : await startLocalStore({ dataDir });
  await createServiceTables(store.endpoint, LOCAL_TABLES);
  const client = createDocumentClient({ endpoint: store.endpoint });
  return {
    admin: new KeyAdmin(createApiKeyRepository(client, LOCAL_TABLES.apiKeysTable), createUsageCounterRepository(client, LOCAL_TABLES.usageCountersTable)),
    describe: `local store in ${dataDir}${shared ? ' (through the running server)' : ''}`,
    async close() {
      client.destroy();
      await store.close();
    },
  };
}

/** A deployed stage, found through its CloudFormation stack's outputs; uses the caller's AWS credentials. */
export async function openStageTarget(stage: DeploymentStage): Promise<KeyTarget> {
  const stackName = STACK_NAMES[stage];
  const cloudFormation = new CloudFormationClient({});
  const { Stacks } = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
  cloudFormation.destroy();
  const outputs = new Map((Stacks?.[0]?.Outputs ?? []).map((output) => [output.OutputKey, output.OutputValue]));
  const output = (name: string) => {
    const value = outputs.get(name);
    if (!value) throw new Error(`Stack ${stackName} has no output ${name}; deploy it first (npm run deploy:${stage}).`);
    return value;
  };
  const client = createDocumentClient();
  const apiGateway = new APIGatewayClient({});
  const gateway = createGatewayKeys(apiGateway, {
    restApiId: output(STACK_OUTPUTS.restApiId),
    stageName: outputs.get(STACK_OUTPUTS.stageName) ?? API_STAGE_NAME,
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
