import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authenticate, UnauthorizedError, type ApiKeyRepository } from '../domain/api-keys.ts';
import { describeError, logger } from '../logger.ts';
import { authorizerContext } from '../http/caller.ts';
import { inRequestContext } from '../http/request-context.ts';

/** Logged when authorization fails for any reason but a bad key; an alarm counts these lines. */
export const AUTHORIZER_FAILURE_LOG_MESSAGE = 'authorization failed';

/** API Gateway answers 401 for exactly this error message; any other error is AUTHORIZER_FAILURE (503). */
export const UNAUTHORIZED_MESSAGE = 'Unauthorized';

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

export function createAuthorizerHandler({ apiKeys }: { apiKeys: ApiKeyRepository }) {
  const authorize = middy<APIGatewayRequestAuthorizerEvent, APIGatewayAuthorizerResult>()
    .handler(async (event) => {
      try {
        const { apiKey, record } = await authenticate(apiKeys, soleAuthorization(event));
        return {
          principalId: record.keyId,
          // The result is cached per Authorization header for every route, so it allows the whole stage.
          policyDocument: {
            Version: '2012-10-17',
            Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: wholeStageArn(event.methodArn) }],
          },
          // API key source AUTHORIZER: usage plans count and throttle this key at the edge.
          usageIdentifierKey: apiKey,
          context: authorizerContext(record),
        };
      } catch (error) {
        if (error instanceof UnauthorizedError) throw new Error(UNAUTHORIZED_MESSAGE);
        logger.error(AUTHORIZER_FAILURE_LOG_MESSAGE, describeError(error));
        throw error;
      }
    });
  return inRequestContext(authorize);
}
