import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { AuthorizerContext } from '../../functions/http/caller.ts';
import { proxyEvent as gatewayProxyEvent, type GatewayRequest } from '../../local/gateway-events.ts';

export const FREE_CALLER: AuthorizerContext = { keyId: 'key_test', plan: 'free', perMinute: 60, perDay: 1_000 };

/** A request to GET /v1/inventory as API Gateway received it; `overrides` change any part. */
export function gatewayRequest(overrides: Partial<GatewayRequest> = {}): GatewayRequest {
  return {
    method: 'GET',
    resource: '/inventory',
    path: '/inventory',
    stage: 'v1',
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: {},
    multiValueQueryStringParameters: {},
    pathParameters: {},
    body: null,
    requestId: 'request-1',
    sourceIp: '127.0.0.1',
    protocol: 'HTTP/1.1',
    receivedAt: Date.UTC(2026, 0, 1),
    ...overrides,
  };
}

/** An API Gateway REST (v1) proxy event as the authorizer would have let it through. */
export function proxyEvent(overrides: Partial<APIGatewayProxyEvent> & { caller?: AuthorizerContext | null } = {}): APIGatewayProxyEvent {
  const { caller = FREE_CALLER, ...rest } = overrides;
  const authorizer = caller ? { principalId: caller.keyId, context: caller, latencyMs: 0 } : null;
  return { ...gatewayProxyEvent(gatewayRequest(), authorizer), ...rest };
}

export function patchEvent(petId: string, body: string | null, contentType: string | undefined = 'application/json'): APIGatewayProxyEvent {
  return proxyEvent({
    resource: '/inventory/{petId}',
    path: `/inventory/${petId}`,
    httpMethod: 'PATCH',
    pathParameters: { petId },
    headers: contentType ? { 'Content-Type': contentType } : {},
    multiValueHeaders: contentType ? { 'Content-Type': [contentType] } : {},
    body,
  });
}

export const lambdaContext = { awsRequestId: 'request-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
