import {
  type APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanCommand,
  CreateUsagePlanKeyCommand,
  DeleteUsagePlanCommand,
  DeleteUsagePlanKeyCommand,
  GetUsagePlansCommand,
  UpdateApiKeyCommand,
  UpdateUsagePlanCommand,
} from '@aws-sdk/client-api-gateway';
import type { ApiKeyRecord } from '../../functions/domain/api-keys.ts';
import { edgeBackstop, limitsFor, type PlanName } from '../../functions/domain/plans.ts';
import type { GatewayKeys } from '../../local/key-admin.ts';

export interface GatewayStage {
  restApiId: string;
  stageName: string;
  /** The CDK stack's usage plans; enterprise keys get a plan of their own. */
  usagePlanIds: Record<Exclude<PlanName, 'enterprise'>, string>;
}

const ENTERPRISE_PLAN_PREFIX = 'enterprise-';

/** API keys and usage-plan membership on a deployed stage, through the API Gateway API. */
export function createGatewayKeys(client: APIGatewayClient, stage: GatewayStage): GatewayKeys {
  /**
   * Takes the key out of every usage plan it is in. An enterprise key's own plan lives outside
   * CloudFormation, so it is deleted with it rather than left attached to the stage.
   */
  async function leavePlans(gatewayKeyId: string): Promise<void> {
    const { items } = await client.send(new GetUsagePlansCommand({ keyId: gatewayKeyId }));
    for (const plan of items ?? []) {
      await client.send(new DeleteUsagePlanKeyCommand({ usagePlanId: plan.id, keyId: gatewayKeyId }));
      if (!plan.name?.startsWith(ENTERPRISE_PLAN_PREFIX)) continue;
      await client.send(
        new UpdateUsagePlanCommand({
          usagePlanId: plan.id,
          patchOperations: [{ op: 'remove', path: '/apiStages', value: `${stage.restApiId}:${stage.stageName}` }],
        }),
      );
      await client.send(new DeleteUsagePlanCommand({ usagePlanId: plan.id }));
    }
  }

  async function usagePlanFor(record: ApiKeyRecord): Promise<string> {
    if (record.plan !== 'enterprise') return stage.usagePlanIds[record.plan];
    const backstop = edgeBackstop(limitsFor(record.plan, record.customLimits));
    const { id } = await client.send(
      new CreateUsagePlanCommand({
        name: `${ENTERPRISE_PLAN_PREFIX}${record.keyId}`,
        description: `Enterprise plan of ${record.owner} (${record.keyId})`,
        apiStages: [{ apiId: stage.restApiId, stage: stage.stageName }],
        throttle: { rateLimit: backstop.rateLimit, burstLimit: backstop.burstLimit },
        quota: { limit: backstop.quotaPerDay, period: 'DAY' },
      }),
    );
    if (!id) throw new Error('API Gateway created a usage plan without an id.');
    return id;
  }

  async function join(gatewayKeyId: string, record: ApiKeyRecord): Promise<void> {
    await client.send(new CreateUsagePlanKeyCommand({ usagePlanId: await usagePlanFor(record), keyId: gatewayKeyId, keyType: 'API_KEY' }));
  }

  return {
    async register(record, apiKey) {
      const { id } = await client.send(
        new CreateApiKeyCommand({ name: record.keyId, description: `Owner: ${record.owner}`, enabled: true, value: apiKey }),
      );
      if (!id) throw new Error('API Gateway created an API key without an id.');
      await join(id, record);
      return id;
    },

    async moveToPlan(gatewayKeyId, record) {
      await leavePlans(gatewayKeyId);
      await join(gatewayKeyId, record);
    },

    async disable(gatewayKeyId) {
      await client.send(
        new UpdateApiKeyCommand({ apiKey: gatewayKeyId, patchOperations: [{ op: 'replace', path: '/enabled', value: 'false' }] }),
      );
      await leavePlans(gatewayKeyId);
    },
  };
}
