import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import type { GatewayRequest } from './gateway-events.ts';

/**
 * API Gateway's cache of the REQUEST authorizer's answers, for the local server, keyed as the
 * stage keys it (lib/inventory-api.ts): by the identity sources, the Authorization header and
 * the source address. An answer, Allow or Deny with its context, is reused for the same identity
 * until it is `ttlSeconds` old; a failure (the authorizer threw) is not kept.
 */

/** Entries past which expired ones are swept, and past which, still, the cache starts over: a flood of new keys cannot grow it without bound. */
const MAX_ENTRIES = 10_000;

/**
 * The identity sources' values, or undefined when one is missing or empty: API Gateway then
 * answers 401 itself (UNAUTHORIZED) without calling the authorizer. Of repeated Authorization
 * headers it takes the last, as its `headers` map does; the function refuses such a request
 * when an answer for that last one lets it through (http/single-value-headers.ts).
 */
export function identityOf(request: Pick<GatewayRequest, 'multiValueHeaders' | 'sourceIp'>): string | undefined {
  const authorization = Object.entries(request.multiValueHeaders)
    .filter(([name]) => name.toLowerCase() === 'authorization')
    .flatMap(([, values]) => values)
    .at(-1);
  if (!authorization || !request.sourceIp) return undefined;
  return `${authorization}\n${request.sourceIp}`;
}

export interface AuthorizerCache {
  /** The answer kept for this identity, or the one `authorize` gives now (kept if it gives one). */
  answer(identity: string, authorize: () => Promise<APIGatewayAuthorizerResult>): Promise<APIGatewayAuthorizerResult>;
}

export function authorizerCache(ttlSeconds: number, now: () => number = Date.now): AuthorizerCache {
  const kept = new Map<string, { result: APIGatewayAuthorizerResult; expiresAt: number }>();
  const sweep = () => {
    const time = now();
    for (const [identity, entry] of kept) if (entry.expiresAt <= time) kept.delete(identity);
    if (kept.size >= MAX_ENTRIES) kept.clear();
  };
  return {
    async answer(identity, authorize) {
      const entry = kept.get(identity);
      if (entry && entry.expiresAt > now()) return entry.result;
      const result = await authorize();
      if (kept.size >= MAX_ENTRIES) sweep();
      kept.set(identity, { result, expiresAt: now() + ttlSeconds * 1_000 });
      return result;
    },
  };
}
