import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanCommand,
  CreateUsagePlanKeyCommand,
  DeleteUsagePlanCommand,
  DeleteUsagePlanKeyCommand,
  GetUsagePlansCommand,
  UpdateApiKeyCommand,
  UpdateUsagePlanCommand,
} from '@aws-sdk/client-api-gateway';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../../functions/domain/api-keys.ts';
import { createGatewayKeys } from '../../../tools/keys/gateway-keys.ts';

const apiGateway = mockClient(APIGatewayClient);
const stage = { restApiId: 'api123', stageName: 'v1', usagePlanIds: { free: 'plan-free', pro: 'plan-pro', business: 'plan-business' } };
const record: ApiKeyRecord = {
  keyHash: 'hash',
  keyId: 'key_acme',
  owner: 'Acme',
  plan: 'pro',
  status: 'active',
  createdAt: '2026-11-21T00:00:00.000Z',
};

beforeEach(() => {
  apiGateway.reset();
  apiGateway.on(CreateApiKeyCommand).resolves({ id: 'gw-key-1' });
  apiGateway.on(CreateUsagePlanCommand).resolves({ id: 'plan-enterprise-acme' });
});

describe('API Gateway keys of a deployed stage', () => {
  it('creates the gateway key with the same value and puts it in its plan', async () => {
    const gatewayKeyId = await createGatewayKeys(new APIGatewayClient({}), stage).register(record, 'TheSecretKeyValue0123456789');

    expect(gatewayKeyId).toBe('gw-key-1');
    expect(apiGateway).toHaveReceivedCommandWith(CreateApiKeyCommand, {
      name: 'key_acme',
      enabled: true,
      value: 'TheSecretKeyValue0123456789',
    });
    expect(apiGateway).toHaveReceivedCommandWith(CreateUsagePlanKeyCommand, {
      usagePlanId: 'plan-pro',
      keyId: 'gw-key-1',
      keyType: 'API_KEY',
    });
  });

  it('gives an enterprise key a usage plan of its own, never tighter than its limits', async () => {
    const enterprise: ApiKeyRecord = { ...record, plan: 'enterprise', customLimits: { perMinute: 6_000, perDay: 5_000_000 } };

    await createGatewayKeys(new APIGatewayClient({}), stage).register(enterprise, 'TheSecretKeyValue0123456789');

    expect(apiGateway).toHaveReceivedCommandWith(CreateUsagePlanCommand, {
      name: 'enterprise-key_acme',
      apiStages: [{ apiId: 'api123', stage: 'v1' }],
      throttle: { rateLimit: 100, burstLimit: 12_000 },
      quota: { limit: 5_000_000, period: 'DAY' },
    });
    expect(apiGateway).toHaveReceivedCommandWith(CreateUsagePlanKeyCommand, { usagePlanId: 'plan-enterprise-acme', keyId: 'gw-key-1' });
  });

  it('moves a key out of its current plans into the new one', async () => {
    apiGateway.on(GetUsagePlansCommand).resolves({ items: [{ id: 'plan-pro' }] });

    await createGatewayKeys(new APIGatewayClient({}), stage).moveToPlan('gw-key-1', { ...record, plan: 'business' });

    expect(apiGateway).toHaveReceivedCommandWith(GetUsagePlansCommand, { keyId: 'gw-key-1' });
    expect(apiGateway).toHaveReceivedCommandWith(DeleteUsagePlanKeyCommand, { usagePlanId: 'plan-pro', keyId: 'gw-key-1' });
    expect(apiGateway).toHaveReceivedCommandWith(CreateUsagePlanKeyCommand, { usagePlanId: 'plan-business', keyId: 'gw-key-1' });
  });

  it('disables a revoked key at the gateway and takes it out of its plans', async () => {
    apiGateway.on(GetUsagePlansCommand).resolves({ items: [{ id: 'plan-pro', name: 'PetStoreInventory-Staging-pro' }] });

    await createGatewayKeys(new APIGatewayClient({}), stage).disable('gw-key-1');

    expect(apiGateway).toHaveReceivedCommandWith(UpdateApiKeyCommand, {
      apiKey: 'gw-key-1',
      patchOperations: [{ op: 'replace', path: '/enabled', value: 'false' }],
    });
    expect(apiGateway).toHaveReceivedCommandWith(DeleteUsagePlanKeyCommand, { usagePlanId: 'plan-pro', keyId: 'gw-key-1' });
    expect(apiGateway).toHaveReceivedCommandTimes(DeleteUsagePlanCommand, 0);
  });

  it("deletes an enterprise key's own plan when the key leaves it, instead of leaving it on the stage", async () => {
    apiGateway.on(GetUsagePlansCommand).resolves({ items: [{ id: 'plan-enterprise-acme', name: 'enterprise-key_acme' }] });

    await createGatewayKeys(new APIGatewayClient({}), stage).moveToPlan('gw-key-1', { ...record, plan: 'business' });

    expect(apiGateway).toHaveReceivedCommandWith(UpdateUsagePlanCommand, {
      usagePlanId: 'plan-enterprise-acme',
      patchOperations: [{ op: 'remove', path: '/apiStages', value: 'api123:v1' }],
    });
    expect(apiGateway).toHaveReceivedCommandWith(DeleteUsagePlanCommand, { usagePlanId: 'plan-enterprise-acme' });
    expect(apiGateway).toHaveReceivedCommandWith(CreateUsagePlanKeyCommand, { usagePlanId: 'plan-business', keyId: 'gw-key-1' });
  });
});
