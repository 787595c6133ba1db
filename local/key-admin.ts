import { generateApiKey, hashApiKey, type ApiKeyRecord } from '../functions/domain/api-keys.ts';
import type { PlanLimits, PlanName } from '../functions/domain/plans.ts';
import { KNOWN_API_KEY_SECONDS } from '../functions/domain/known-api-keys.ts';
import { windowAt, type UsageCounterRepository } from '../functions/domain/plan-limiter.ts';
import type { ApiKeyAdminRepository } from '../functions/adapters/dynamodb/api-key-repository.ts';

/** The API Gateway side of a key on a deployed stage: its API key and usage-plan membership. */
export interface GatewayKeys {
  /** Creates the gateway API key with this value in the plan's usage plan; returns its id. */
  register(record: ApiKeyRecord, apiKey: string): Promise<string>;
  moveToPlan(gatewayKeyId: string, record: ApiKeyRecord): Promise<void>;
  disable(gatewayKeyId: string): Promise<void>;
}

export interface IssueKeyRequest {
  plan: PlanName;
  owner: string;
  customLimits?: PlanLimits;
  /** Register this exact key (the local server's DEV_API_KEY) instead of a generated one. */
  apiKey?: string;
  keyId?: string;
}

function checkLimits(plan: PlanName, customLimits: PlanLimits | undefined): void {
  if (plan === 'enterprise' && !customLimits) throw new Error('An enterprise key needs --per-minute and --per-day.');
  if (plan !== 'enterprise' && customLimits) throw new Error('Only enterprise keys take their own limits.');
}

/**
 * Operators' actions on keys. The keys table is the authority (the authorizer reads it); on a
 * deployed stage the gateway's API key mirrors it so that usage plans can meter the key.
 */
export class KeyAdmin {
  constructor(
    private readonly keys: ApiKeyAdminRepository,
    private readonly usage: UsageCounterRepository,
    private readonly gateway?: GatewayKeys,
    private readonly now: () => number = Date.now,
    private readonly wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /** Creates a key and returns it: the only moment the key exists outside its holder's hands. */
  async issue(request: IssueKeyRequest): Promise<{ apiKey: string; record: ApiKeyRecord }> {
    checkLimits(request.plan, request.customLimits);
    if (request.keyId !== undefined && (await this.keys.findByKeyId(request.keyId)))
      throw new Error(`A key with the id ${request.keyId} exists already.`);
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
    // Gateway first: a key our table accepts but the gateway does not know would fail every call.
    if (this.gateway) record.gatewayKeyId = await this.gateway.register(record, apiKey);
    await this.keys.create(record);
    return { apiKey, record };
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.keys.list();
  }

  /**
   * Revokes the key for good. A warm authorizer may still know the key as active for up to
   * KNOWN_API_KEY_SECONDS more, so the counting write refuses it until then:
   * written first, so that a revocation that fails halfway has refused the key already. The
   * gateway's API key stays enabled: see disableGatewayKey.
   */
  async revoke(keyId: string): Promise<ApiKeyRecord> {
    const record = await this.find(keyId);
    const nowSeconds = Math.floor(this.now() / 1000);
    await this.usage.revoke(record.keyId, nowSeconds, nowSeconds + KNOWN_API_KEY_SECONDS);
    await this.keys.update(record.keyHash, { status: 'revoked' });
    return { ...record, status: 'revoked' };
  }

  /** Whether a revoked key has a gateway API key for disableGatewayKey to disable. */
  hasGatewayKey(record: ApiKeyRecord): boolean {
    return this.gateway !== undefined && record.gatewayKeyId !== undefined;
  }

  /**
   * Disables a revoked key's gateway API key once no authorizer can still let the key through
   * (KNOWN_API_KEY_SECONDS after `revoke`). Sooner, a request the authorizer allows from memory
   * would meet the disabled key at the usage plan, and API Gateway would answer it itself
   * (INVALID_API_KEY, a static template without X-RateLimit-Reset) instead of the function's
   * 401 with the key's windows. The authorizer refuses a revoked key it reads, so the gateway key
   * is never reached after that either way: disabling it is hygiene, not the revocation.
   */
  async disableGatewayKey(record: ApiKeyRecord): Promise<void> {
    if (!this.gateway || record.gatewayKeyId === undefined) return;
    await this.wait(KNOWN_API_KEY_SECONDS * 1_000);
    await this.gateway.disable(record.gatewayKeyId);
  }

  async setPlan(keyId: string, plan: PlanName, customLimits?: PlanLimits): Promise<ApiKeyRecord> {
    checkLimits(plan, customLimits);
    const record = await this.find(keyId);
    if (record.status === 'revoked')
      throw new Error(`${keyId} is revoked, so its plan cannot change; issue a new key instead (npm run keys -- issue).`);
    const changed: ApiKeyRecord = { ...record, plan };
    if (customLimits) changed.customLimits = customLimits;
    else delete changed.customLimits;
    await this.keys.update(record.keyHash, { plan, customLimits: customLimits ?? null });
    if (this.gateway && record.gatewayKeyId) await this.gateway.moveToPlan(record.gatewayKeyId, changed);
    return changed;
  }

  async unban(keyId: string): Promise<void> {
    await this.find(keyId);
    await this.usage.unban(keyId, windowAt('minute', this.now(), 0));
  }

  bannedUntil(keyId: string): Promise<number | undefined> {
    return this.usage.bannedUntil(keyId);
  }

  private async find(keyId: string): Promise<ApiKeyRecord> {
    const record = await this.keys.findByKeyId(keyId);
    if (!record) throw new Error(`No key has the id ${keyId}.`);
    return record;
  }
}
