import { createHash, randomBytes } from 'node:crypto';
import { ApiError, ERROR_MESSAGES, ErrorCode } from './errors.ts';
import type { RateLimitState } from './rate-limit-state.ts';
import type { PlanLimits, PlanName } from './plans.ts';

export type ApiKeyStatus = 'active' | 'revoked';

/** What the service stores of a key: never the key itself, only its SHA-256. */
export interface ApiKeyRecord {
  keyHash: string;
  /** Public identifier operators use (list, revoke, set-plan, unban). */
  keyId: string;
  owner: string;
  plan: PlanName;
  status: ApiKeyStatus;
  createdAt: string;
  /** Enterprise keys only: the limits agreed for this key. */
  customLimits?: PlanLimits;
  /** Set on deployed stages: the API Gateway API key that mirrors this key for usage plans. */
  gatewayKeyId?: string;
}

export interface ApiKeyRepository {
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
}

/**
 * API Gateway accepts API key values of 20 to 128 alphanumeric characters; 43 base62
 * characters carry 256 bits of randomness.
 */
export const API_KEY_PATTERN = /^[A-Za-z0-9]{20,128}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomBase62(length: number): string {
  let text = '';
  while (text.length < length) {
    for (const byte of randomBytes(length)) {
      // Rejection sampling: 248 = 4 × 62, so every kept byte maps to a character uniformly.
      if (byte < 248 && text.length < length) text += BASE62[byte % 62];
    }
  }
  return text;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function generateApiKey(): { key: string; keyId: string; keyHash: string } {
  const key = randomBase62(43);
  return { key, keyId: `key_${randomBase62(12)}`, keyHash: hashApiKey(key) };
}

export class UnauthorizedError extends ApiError {
  /** `rateLimit`: the window that counted this failure (the source address's), once it is counted. */
  constructor(rateLimit?: RateLimitState) {
    super(ErrorCode.unauthorized, ERROR_MESSAGES.unauthorized, { rateLimit });
  }
}

/** The token of an `Authorization: Bearer <token>` header, or undefined if the header is anything else. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  const token = match?.[1];
  return token !== undefined && API_KEY_PATTERN.test(token) ? token : undefined;
}

/** Resolves the active key behind an Authorization header or throws UnauthorizedError. */
export async function authenticate(
  repository: ApiKeyRepository,
  authorization: string | undefined,
): Promise<{ apiKey: string; record: ApiKeyRecord }> {
  const apiKey = bearerToken(authorization);
  if (apiKey === undefined) throw new UnauthorizedError();
  // Looking up by hash means the secret is never compared byte by byte, so timing reveals nothing.
  const record = await repository.findByHash(hashApiKey(apiKey));
  if (record?.status !== 'active') throw new UnauthorizedError();
  return { apiKey, record };
}
