import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gatewayErrorBody, gatewayResponses, type GatewayErrorResponse } from '../http/gateway-responses.ts';
import { JSON_HEADERS } from '../http/json.ts';
import type { HttpHandler } from '../http/http-handler.ts';
import { REQUEST_ID_HEADER } from '../http/request-context.ts';
import { UNAUTHORIZED_MESSAGE } from '../handlers/authorizer-handler.ts';
import { logger } from '../logger.ts';
import type { ApiRoute } from '../routes.ts';

export const STAGE = 'v1';
/** API Gateway's own cap on a request payload. */
const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

export type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent, context: Context) => Promise<APIGatewayAuthorizerResult>;

export interface LocalRoute {
  route: Pick<ApiRoute, 'method' | 'resource'>;
  handler: HttpHandler;
  /** Whether API Gateway runs the authorizer first (true for every operation of the spec). */
  authorized?: boolean;
}

export interface LocalServerOptions {
  routes: LocalRoute[];
  authorizer: AuthorizerHandler;
  port?: number;
  host?: string;
}

interface MatchedRoute extends LocalRoute {
  pathParameters: Record<string, string> | null;
}

function resourcePattern(resource: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = resource.replace(/\{(\w+)\}/g, (_match, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { pattern: new RegExp(`^${source}$`), names };
}

function lambdaContext(requestId: string): Context {
  const deadline = Date.now() + 10_000;
  return {
    awsRequestId: requestId,
    functionName: 'local',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:local',
    memoryLimitInMB: '512',
    logGroupName: 'local',
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Every answer names its request, as API Gateway's own answers do on AWS (the functions' already carry it). */
function send(response: ServerResponse, result: APIGatewayProxyResult, requestId: string): void {
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body, 'utf8');
  response.writeHead(result.statusCode, { ...result.headers, [REQUEST_ID_HEADER]: requestId, 'Content-Length': body.length });
  response.end(body);
}

function gatewayResult(answer: GatewayErrorResponse): APIGatewayProxyResult {
  return {
    statusCode: answer.status,
    headers: { ...JSON_HEADERS, ...answer.headers },
    body: JSON.stringify(gatewayErrorBody(answer)),
  };
}

async function readBody(request: IncomingMessage): Promise<Buffer | 'too large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) return 'too large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function headerMaps(request: IncomingMessage) {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    const name = request.rawHeaders[index]!;
    const value = request.rawHeaders[index + 1]!;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  return { headers, multiValueHeaders };
}

function queryMaps(url: URL) {
  if ([...url.searchParams.keys()].length === 0) return { queryStringParameters: null, multiValueQueryStringParameters: null };
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) {
    single[name] = value;
    (multi[name] ??= []).push(value);
  }
  return { queryStringParameters: single, multiValueQueryStringParameters: multi };
}

/**
 * A small stand-in for API Gateway (REST, v1 payload): it routes `/v1/...` to the same
 * handlers that run on Lambda, runs the same REQUEST authorizer first, and answers with the
 * same gateway responses. Differences from AWS: no authorizer result cache (a revoked key
 * is refused at once) and no usage-plan backstop; the service's own plan limits apply.
 */
export function createLocalServer(options: LocalServerOptions): Server {
  const compiled = options.routes.map((route) => ({ ...route, ...resourcePattern(route.route.resource) }));

  function match(method: string, path: string): MatchedRoute | undefined {
    for (const candidate of compiled) {
      const found = candidate.pattern.exec(path);
      if (!found || candidate.route.method !== method) continue;
      const entries = candidate.names.map((name, index) => {
        const raw = found[index + 1]!;
        try {
          return [name, decodeURIComponent(raw)];
        } catch {
          return [name, raw];
        }
      });
      return { ...candidate, pathParameters: entries.length > 0 ? Object.fromEntries(entries) : null };
    }
    return undefined;
  }

  async function answer(request: IncomingMessage, requestId: string): Promise<APIGatewayProxyResult> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const method = request.method ?? 'GET';
    const stagePrefix = `/${STAGE}`;
    const path = url.pathname.startsWith(`${stagePrefix}/`) ? url.pathname.slice(stagePrefix.length) : undefined;
    const matched = path === undefined ? undefined : match(method, path);
    if (!matched || path === undefined) return gatewayResult(gatewayResponses.MISSING_AUTHENTICATION_TOKEN);

    const body = await readBody(request);
    if (body === 'too large') return gatewayResult(gatewayResponses.REQUEST_TOO_LARGE);
    const { headers, multiValueHeaders } = headerMaps(request);
    const query = queryMaps(url);
    const sourceIp = request.socket.remoteAddress ?? '127.0.0.1';

    let authorizer: Record<string, string | number | boolean> | null = null;
    if (matched.authorized !== false) {
      const authorizerEvent: APIGatewayRequestAuthorizerEvent = {
        type: 'REQUEST',
        methodArn: `arn:aws:execute-api:local:000000000000:local/${STAGE}/${method}${path}`,
        resource: matched.route.resource,
        path: url.pathname,
        httpMethod: method,
        headers,
        multiValueHeaders,
        pathParameters: matched.pathParameters,
        ...query,
        stageVariables: null,
        requestContext: { requestId, stage: STAGE } as APIGatewayRequestAuthorizerEvent['requestContext'],
      };
      try {
        const result = await options.authorizer(authorizerEvent, lambdaContext(requestId));
        authorizer = { principalId: result.principalId, ...result.context };
      } catch (error) {
        const unauthorized = error instanceof Error && error.message === UNAUTHORIZED_MESSAGE;
        return gatewayResult(unauthorized ? gatewayResponses.UNAUTHORIZED : gatewayResponses.AUTHORIZER_FAILURE);
      }
    }

    const event: APIGatewayProxyEvent = {
      resource: matched.route.resource,
      path,
      httpMethod: method,
      headers,
      multiValueHeaders,
      ...query,
      pathParameters: matched.pathParameters,
      stageVariables: null,
      body: body.length > 0 ? body.toString('utf8') : null,
      isBase64Encoded: false,
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        authorizer,
        httpMethod: method,
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        requestId,
        requestTimeEpoch: Date.now(),
        resourceId: 'local',
        resourcePath: matched.route.resource,
        stage: STAGE,
        identity: { sourceIp } as APIGatewayProxyEvent['requestContext']['identity'],
      },
    };
    try {
      return await matched.handler(event, lambdaContext(requestId));
    } catch (error) {
      // On AWS an exception escaping the function is a 502 from the integration, answered by DEFAULT_5XX.
      logger.error('handler threw', { requestId, error: String(error) });
      return gatewayResult(gatewayResponses.DEFAULT_5XX);
    }
  }

  return createServer((request, response) => {
    const requestId = randomUUID();
    const startedAt = performance.now();
    answer(request, requestId)
      .then((result) => {
        send(response, result, requestId);
        logger.info('request', {
          requestId,
          method: request.method,
          path: request.url,
          status: result.statusCode,
          latencyMs: Math.round((performance.now() - startedAt) * 100) / 100,
        });
      })
      .catch((error: unknown) => {
        logger.error('local server failure', { requestId, error: String(error) });
        if (!response.headersSent) send(response, gatewayResult(gatewayResponses.DEFAULT_5XX), requestId);
      });
  });
}

export async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`Port ${port} on ${host} is in use by another program; start with another port, e.g. PORT=3001 npm start (PORT=0 picks a free one).`) : error),
    );
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}
