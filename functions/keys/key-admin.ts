import { generateApiKey, hashApiKey, type ApiKeyRecord } from '../domain/api-keys.ts';
import type { PlanLimits, PlanName } from '../domain/plans.ts';
import type { ApiKeyAdminRepository } from '../adapters/dynamodb/api-key-repository.ts';

export interface IssueKeyRequest {
  plan: PlanName;
  owner: string;
  customLimits?: PlanLimits;
  /** Register this exact key (the local server's DEV_API_KEY) instead of a generated one. */
  apiKey?: string;
  keyId?: string;
}

/** Creates a key record and returns the key: the only moment the key exists outside its holder's hands. */
export async function issueKey(keys: ApiKeyAdminRepository, request: IssueKeyRequest): Promise<{ apiKey: string; record: ApiKeyRecord }> {
  if (request.plan === 'enterprise' && !request.customLimits) throw new Error('An enterprise key needs --per-minute and --per-day.');
  if (request.plan !== 'enterprise' && request.customLimits) throw new Error('Only enterprise keys take their own limits.');
  const generated = generateApiKey();
  const apiKey = request.apiKey ?? generated.key;
  const record: ApiKeyRecord = {
    keyHash: hashApiKey(apiKey),
    keyId: request.keyId ?? generated.keyId,
    owner: request.owner,
    plan: request.plan,
    status: 'active',
    createdAt: new Date().toISOString(),
  };
  if (request.customLimits) record.customLimits = request.customLimits;
  await keys.create(record);
  return { apiKey, record };
}
