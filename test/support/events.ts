import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { AuthorizerContext } from '../../functions/http/caller.ts';

export const FREE_CALLER: AuthorizerContext = { keyId: 'key_test', plan: 'free', perMinute: 60, perDay: 1_000 };

/** An API Gateway REST (v1) proxy event as the authorizer would have let it through. */
export function proxyEvent(overrides: Partial<APIGatewayProxyEvent> & { caller?: AuthorizerContext | null } = {}): APIGatewayProxyEvent {
  const { caller = FREE_CALLER, ...rest } = overrides;
  return {
    resource: '/inventory',
    path: '/inventory',
    httpMethod: 'GET',
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      authorizer: caller ? { principalId: caller.keyId, ...caller } : null,
      requestId: 'request-1',
      stage: 'v1',
    } as unknown as APIGatewayProxyEvent['requestContext'],
    ...rest,
  };
}

export function patchEvent(petId: string, body: string | null, contentType: string | undefined = 'application/json'): APIGatewayProxyEvent {
  return proxyEvent({
    resource: '/inventory/{petId}',
    path: `/inventory/${petId}`,
    httpMethod: 'PATCH',
    pathParameters: { petId },
    headers: contentType ? { 'Content-Type': contentType } : {},
    body,
  });
}

export const lambdaContext = { awsRequestId: 'request-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
