import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { UnauthorizedError, type ApiKeyRepository } from '../domain/api-keys.ts';
import type { FailedAuthenticationLimiter } from '../domain/failed-authentications.ts';
import { knownApiKeys } from '../domain/known-api-keys.ts';
import { errorHeaders } from '../http/error-formatter.ts';
import { authorizerRateLimitContext } from '../http/gateway-responses.ts';
import { describeError, logger } from '../logger.ts';
import { authorizerContext } from '../http/caller.ts';
import { inRequestContext } from '../http/request-context.ts';

/** Logged when authorization fails for any reason but a bad key; an alarm counts these lines. */
export const AUTHORIZER_FAILURE_LOG_MESSAGE = 'authorization failed';

/** arn:aws:execute-api:region:account:apiId/stage/METHOD/path → the same API and stage, every method and path. */
function wholeStageArn(methodArn: string): string {
  const [apiArn, stage] = methodArn.split('/');
  return `${apiArn}/${stage}/*`;
}

/**
 * The request's one Authorization value, whatever the case of its name. API Gateway keeps the
 * last of repeated headers in `headers` and every one in `multiValueHeaders`, names as the
 * client wrote them: two Authorization headers are ambiguous credentials, refused rather than
 * settled by order (a header normalizer would keep one of them silently).
 */
export function soleAuthorization(event: Pick<APIGatewayRequestAuthorizerEvent, 'headers' | 'multiValueHeaders'>): string | undefined {
  const named = <Value>(map: Record<string, Value> | null | undefined) =>
    Object.entries(map ?? {}).flatMap(([name, value]) => (name.toLowerCase() === 'authorization' ? [value] : []));
  const all = named(event.multiValueHeaders).flatMap((values) => values ?? []);
  const last = named(event.headers);
  if (all.length > 1 || last.length > 1) throw new UnauthorizedError();
  return all[0] ?? last[0];
}

/**
 * The caller's address as API Gateway saw it. Never missing on AWS; a request without one (a
 * test invoking the function directly) shares one window with every other such request.
 */
function sourceAddress(event: APIGatewayRequestAuthorizerEvent): string {
  return event.requestContext?.identity?.sourceIp ?? 'unknown';
}

/**
 * A refused key as a Deny carrying the address window's headers in its context: of the
 * authorizer's outcomes only a Deny reaches a gateway response (ACCESS_DENIED, set up as the
 * 401) with values it can map into headers. It denies the whole stage, as an Allow allows it.
 */
function denial(event: APIGatewayRequestAuthorizerEvent, error: UnauthorizedError): APIGatewayAuthorizerResult {
  return {
    principalId: 'unauthenticated',
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: wholeStageArn(event.methodArn) }],
    },
    context: authorizerRateLimitContext(errorHeaders(error)),
  };
}

export function createAuthorizerHandler({
  apiKeys,
  failedAuthentications,
}: {
  apiKeys: ApiKeyRepository;
  failedAuthentications: FailedAuthenticationLimiter;
}) {
  // API Gateway calls the authorizer on every request (lib/inventory-api.ts); a warm instance answers a key it read in the last minute from memory.
  const keys = knownApiKeys(apiKeys);
  const authorize = middy<APIGatewayRequestAuthorizerEvent, APIGatewayAuthorizerResult>().handler(async (event) => {
    try {
      const { apiKey, record } = await failedAuthentications.authenticate(sourceAddress(event), () => soleAuthorization(event), keys);
      return {
        principalId: record.keyId,
        // A key's answer allows the whole stage: every route takes the same keys.
        policyDocument: {
          Version: '2012-10-17',
          Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: wholeStageArn(event.methodArn) }],
        },
        // API key source AUTHORIZER: usage plans count and throttle this key at the edge.
        usageIdentifierKey: apiKey,
        context: authorizerContext(record),
      };
    } catch (error) {
      if (error instanceof UnauthorizedError) return denial(event, error);
      // Any error is API Gateway's AUTHORIZER_FAILURE (503): "Unauthorized" would be its UNAUTHORIZED, a static 401 without X-RateLimit-Reset.
      logger.error(AUTHORIZER_FAILURE_LOG_MESSAGE, { requestId: event.requestContext?.requestId, ...describeError(error) });
      throw error;
    }
  });
  return inRequestContext(authorize);
}
