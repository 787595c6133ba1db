import type { APIGatewayAuthorizerResultContext, APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';

/**
 * The events API Gateway (REST, payload 1.0) sends the functions, in the shape AWS documents
 * them and Powertools for AWS Lambda's parser schemas check them (test/fast/unit/gateway-events):
 * built in one place for the local server, the tests and the benchmarks.
 */

/** The stand-in API's identifiers, where API Gateway would put the real account's and API's. */
export const LOCAL_ACCOUNT_ID = '000000000000';
export const LOCAL_API_ID = 'local';

/** One request as API Gateway has received and routed it. */
export interface GatewayRequest {
  method: APIGatewayProxyEvent['httpMethod'];
  /** The resource path it matched, relative to the stage (`/inventory/{petId}`). */
  resource: string;
  /** Its path, relative to the stage and as sent, percent-encoding included. */
  path: string;
  stage: string;
  headers: Record<string, string>;
  multiValueHeaders: Record<string, string[]>;
  /** Empty when the request has no query. */
  queryStringParameters: Record<string, string>;
  multiValueQueryStringParameters: Record<string, string[]>;
  /** Empty when the resource has none. */
  pathParameters: Record<string, string>;
  body: string | null;
  requestId: string;
  sourceIp: string;
  /** `HTTP/1.1` */
  protocol: string;
  /** When API Gateway received it, epoch milliseconds. */
  receivedAt: number;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** `requestContext.requestTime`: the Common Log Format time API Gateway writes (`24/Nov/2026:06:30:00 +0000`). */
export function requestTime(epochMs: number): string {
  const at = new Date(epochMs);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${two(at.getUTCDate())}/${MONTHS[at.getUTCMonth()]}/${at.getUTCFullYear()}:${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())} +0000`;
}

/** An IPv4 client as API Gateway names it: Node reports one reached over a dual-stack socket as `::ffff:a.b.c.d`. */
export function sourceIpOf(remoteAddress: string | undefined): string {
  const address = remoteAddress ?? '127.0.0.1';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice('::ffff:'.length) : address;
}

function requestContext(request: GatewayRequest) {
  return {
    accountId: LOCAL_ACCOUNT_ID,
    apiId: LOCAL_API_ID,
    httpMethod: request.method,
    path: `/${request.stage}${request.path}`,
    protocol: request.protocol,
    requestId: request.requestId,
    requestTime: requestTime(request.receivedAt),
    requestTimeEpoch: request.receivedAt,
    resourceId: LOCAL_API_ID,
    resourcePath: request.resource,
    stage: request.stage,
    identity: { sourceIp: request.sourceIp } as APIGatewayProxyEvent['requestContext']['identity'],
  };
}

/**
 * The REQUEST authorizer's event. Unlike the proxy event, API Gateway sends an empty map, not
 * null, for a request without query, path parameters or stage variables.
 */
export function authorizerEvent(request: GatewayRequest): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: `arn:aws:execute-api:local:${LOCAL_ACCOUNT_ID}:${LOCAL_API_ID}/${request.stage}/${request.method}${request.path}`,
    resource: request.resource,
    path: `/${request.stage}${request.path}`,
    httpMethod: request.method,
    headers: request.headers,
    multiValueHeaders: request.multiValueHeaders,
    pathParameters: request.pathParameters,
    queryStringParameters: request.queryStringParameters,
    multiValueQueryStringParameters: request.multiValueQueryStringParameters,
    stageVariables: {},
    requestContext: requestContext(request) as APIGatewayRequestAuthorizerEvent['requestContext'],
  };
}

/** What the authorizer let through: its principal and context, and how long it took, as the proxy event carries them. */
export interface AuthorizerOutcome {
  principalId: string;
  context: APIGatewayAuthorizerResultContext;
  latencyMs: number;
}

/**
 * The proxy integration's event. Empty query and path parameters are null here; the authorizer's
 * context comes with its principal and `integrationLatency`, or null for a method without one.
 */
export function proxyEvent(request: GatewayRequest, authorizer: AuthorizerOutcome | null): APIGatewayProxyEvent {
  const hasQuery = Object.keys(request.queryStringParameters).length > 0;
  return {
    resource: request.resource,
    path: request.path,
    httpMethod: request.method,
    headers: request.headers,
    multiValueHeaders: request.multiValueHeaders,
    queryStringParameters: hasQuery ? request.queryStringParameters : null,
    multiValueQueryStringParameters: hasQuery ? request.multiValueQueryStringParameters : null,
    pathParameters: Object.keys(request.pathParameters).length > 0 ? request.pathParameters : null,
    stageVariables: null,
    body: request.body,
    isBase64Encoded: false,
    requestContext: {
      ...requestContext(request),
      authorizer: authorizer
        ? { ...authorizer.context, principalId: authorizer.principalId, integrationLatency: authorizer.latencyMs }
        : null,
    },
  };
}
