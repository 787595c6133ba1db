import type { APIGatewayAuthorizerResult, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { createServer, maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import type { Duplex } from 'node:stream';
import { ErrorCode } from '../functions/domain/errors.ts';
import {
  gatewayAnswer,
  gatewayErrorBody,
  gatewayResponses,
  routeNotFoundAnswer,
  type GatewayErrorResponse,
} from '../functions/http/gateway-responses.ts';
import { RETRY_AFTER_HEADER } from '../functions/http/error-statuses.ts';
import { JSON_HEADERS } from '../functions/http/json.ts';
import type { HttpHandler, StreamedHttpHandler } from '../functions/http/http-handler.ts';
import { REQUEST_ID_HEADER } from '../functions/http/request-context.ts';
import { logger } from '../functions/logger.ts';
import { API_STAGE_NAME, FUNCTION_TIMEOUT_SECONDS, type ApiRoute } from '../functions/routes.ts';
import { authorizerEvent, proxyEvent, sourceIpOf, type AuthorizerOutcome, type GatewayRequest } from './gateway-events.ts';
import { isStreamedHandler, streamToHttp } from './lambda-streaming.ts';

/** API Gateway's own cap on a request payload. */
const MAX_REQUEST_BYTES = 10 * 1024 * 1024;
/** Request bodies held in memory at once, over all requests: past it a body is refused (413, Retry-After), not buffered. */
const MAX_BUFFERED_BODY_BYTES = 64 * 1024 * 1024;
/** Of a body answered without being read, this much is read and dropped; past it the connection is closed instead. */
const MAX_DISCARDED_BODY_BYTES = MAX_REQUEST_BYTES;

/**
 * How long a client may take, in milliseconds. Node's defaults (60 s for the headers, 300 s for
 * the whole request, checked every 30 s) let a stalled client hold a connection for minutes.
 */
export const CLIENT_TIMEOUTS = {
  /** From the connection, or the end of the previous answer, to the end of the headers. */
  headers: 10_000,
  /** To the end of the body. */
  request: 15_000,
  /** Between requests on a kept-alive connection. */
  keepAlive: 5_000,
  /** With no byte either way, at any stage (a client that stops reading its answer, for one). */
  idleSocket: 30_000,
} as const;
/** How often Node checks the headers and request deadlines; its default (30 s) would stretch them by as much. */
const DEADLINE_CHECK_INTERVAL_MS = 1_000;
/** How long a connection refused by the parser stays open to drop what the client still sends, so that it reads the refusal rather than a reset. */
const LINGER_MS = 2_000;

/**
 * The local server's own answers to requests that never reach a function: what Node's HTTP
 * parser refuses, what it would otherwise answer with an empty body, and bodies it cannot hold.
 * On AWS, API Gateway's front door answers these, so they add no code to the contract: each is
 * BAD_REQUEST (refused before the service saw it) or PAYLOAD_TOO_LARGE, its status saying which
 * refusal. None carries X-RateLimit-*: no request they answer was counted against a key.
 */
const protocolRefusals = {
  malformed: gatewayAnswer(ErrorCode.badRequest, 'The request is not well-formed HTTP/1.1.'),
  hostRequired: gatewayAnswer(ErrorCode.badRequest, 'An HTTP/1.1 request needs a Host header.'),
  badTarget: gatewayAnswer(ErrorCode.badRequest, 'The request target is neither a path nor an http(s) URL.'),
  // The three below keep BAD_REQUEST with the status HTTP has for their refusal, which the code's table does not decide.
  timeout: {
    status: 408,
    code: ErrorCode.badRequest,
    message: `The request did not arrive in time: its headers are due within ${CLIENT_TIMEOUTS.headers / 1_000} s, the whole request within ${CLIENT_TIMEOUTS.request / 1_000} s.`,
  },
  chunkExtensionsTooLarge: gatewayAnswer(ErrorCode.payloadTooLarge, 'The chunk extensions of the body are too large.'),
  bodiesOverBudget: gatewayAnswer(
    ErrorCode.payloadTooLarge,
    'The server holds as many request bodies as it can at the moment; retry after the time in Retry-After.',
    { headers: { [RETRY_AFTER_HEADER]: '1' } },
  ),
  expectation: { status: 417, code: ErrorCode.badRequest, message: 'Only Expect: 100-continue is supported.' },
  headersTooLarge: { status: 431, code: ErrorCode.badRequest, message: `The request line and headers exceed ${maxHeaderSize} bytes.` },
} as const satisfies Record<string, GatewayErrorResponse>;

/** The refusal for an error Node's HTTP server reports as clientError (llhttp's HPE_* codes, its request timeout). */
function refusalFor(code: string | undefined): GatewayErrorResponse {
  if (code === 'HPE_HEADER_OVERFLOW') return protocolRefusals.headersTooLarge;
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return protocolRefusals.chunkExtensionsTooLarge;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return protocolRefusals.timeout;
  return protocolRefusals.malformed;
}

export type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent, context: Context) => Promise<APIGatewayAuthorizerResult>;

export interface LocalRoute {
  route: Pick<ApiRoute, 'method' | 'resource'>;
  /** A streamed handler's answer is passed on chunk by chunk, as API Gateway does in transfer mode STREAM. */
  handler: HttpHandler | StreamedHttpHandler;
  /** Whether API Gateway runs the authorizer first (true for every operation of the spec). */
  authorized?: boolean;
}

export interface LocalServerOptions {
  routes: LocalRoute[];
  authorizer: AuthorizerHandler;
  /** X-RateLimit-* of an answer no window counts, as the stage's catch-all methods compute them for a route that does not exist. */
  uncountedRateLimitHeaders: () => Record<string, string>;
  port?: number;
  host?: string;
}

interface MatchedRoute extends LocalRoute {
  pathParameters: Record<string, string> | null;
}

/** Orders resources that match one path as API Gateway chooses among them: at the first segment where they differ, a literal before a parameter. */
function byLiteralPrecedence(left: string, right: string): number {
  const [a, b] = [left.split('/'), right.split('/')];
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
    const [aParameter, bParameter] = [a[index]!.startsWith('{'), b[index]!.startsWith('{')];
    if (aParameter !== bParameter) return aParameter ? 1 : -1;
  }
  return 0;
}

function resourcePattern(resource: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = resource.replace(/\{(\w+)\}/g, (_match, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { pattern: new RegExp(`^${source}$`), names };
}

/** A streamed answer already written to the client: only its status is left to log. */
interface StreamedAnswer {
  statusCode: number;
  streamed: true;
}

function lambdaContext(requestId: string, timeoutSeconds: number = FUNCTION_TIMEOUT_SECONDS.buffered): Context {
  const deadline = Date.now() + timeoutSeconds * 1_000;
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

/**
 * API Gateway (REST) names the request in this header on every answer, its own and the
 * functions' alike; X-Request-Id, the service's own name for it, is on every answer too (the
 * functions set it, and the stage's gateway responses map it).
 */
const GATEWAY_REQUEST_ID_HEADER = 'x-amzn-RequestId';

function requestIdHeaders(requestId: string): Record<string, string> {
  return { [GATEWAY_REQUEST_ID_HEADER]: requestId, [REQUEST_ID_HEADER]: requestId };
}

function send(response: ServerResponse, result: APIGatewayProxyResult, requestId: string): void {
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body, 'utf8');
  response.writeHead(result.statusCode, { ...result.headers, ...requestIdHeaders(requestId), 'Content-Length': body.length });
  response.end(body);
}

/** A gateway response as API Gateway renders it: its static headers, and those it maps from the authorizer's context. */
function gatewayResult(
  answer: GatewayErrorResponse,
  authorizerContext: APIGatewayAuthorizerResult['context'] = {},
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  const mapped = Object.entries(answer.fromAuthorizer ?? {}).flatMap(([name, key]) =>
    authorizerContext?.[key] === undefined ? [] : [[name, String(authorizerContext[key])]],
  );
  return {
    statusCode: answer.status,
    headers: { ...JSON_HEADERS, ...answer.headers, ...Object.fromEntries(mapped), ...headers },
    body: JSON.stringify(gatewayErrorBody(answer)),
  };
}

/** An answer written straight to the socket, where Node gives no response object (parser errors, CONNECT). */
function rawAnswer(answer: GatewayErrorResponse): string {
  const body = JSON.stringify(gatewayErrorBody(answer));
  const headers = {
    ...JSON_HEADERS,
    ...answer.headers,
    [GATEWAY_REQUEST_ID_HEADER]: randomUUID(),
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  return [
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    '',
    body,
  ].join('\r\n');
}

/** The path (still percent-encoded) and query of a request target; undefined if it is neither a path nor an http(s) URL. */
function requestTarget(url: string | undefined): { path: string; query: string } | undefined {
  const target = url ?? '';
  if (target.startsWith('/') || target === '*') {
    const queryStart = target.indexOf('?');
    return queryStart < 0 ? { path: target, query: '' } : { path: target.slice(0, queryStart), query: target.slice(queryStart + 1) };
  }
  // The absolute form (`GET http://host/path`), which an HTTP/1.1 server must accept.
  if (!URL.canParse(target)) return undefined;
  const { protocol, pathname, search } = new URL(target);
  return protocol === 'http:' || protocol === 'https:' ? { path: pathname, query: search.slice(1) } : undefined;
}

function declaredLength(request: IncomingMessage): number {
  return Number(request.headers['content-length'] ?? 0);
}

/**
 * The single- and multi-value maps of an event, built from Maps: names such as `__proto__` or
 * `constructor` are ordinary entries, and Object.fromEntries makes them own properties, as
 * JSON.parse does with the events Lambda receives.
 */
function eventMaps(entries: Iterable<readonly [string, string]>) {
  const values = new Map<string, string[]>();
  for (const [name, value] of entries) {
    const known = values.get(name);
    if (known) known.push(value);
    else values.set(name, [value]);
  }
  return {
    single: Object.fromEntries([...values].map(([name, all]) => [name, all.at(-1)!])),
    multi: Object.fromEntries(values),
    size: values.size,
  };
}

function headerMaps(request: IncomingMessage) {
  const pairs: [string, string][] = [];
  for (let index = 0; index < request.rawHeaders.length; index += 2)
    pairs.push([request.rawHeaders[index]!, request.rawHeaders[index + 1]!]);
  const { single, multi } = eventMaps(pairs);
  return { headers: single, multiValueHeaders: multi };
}

function queryMaps(query: string) {
  const { single, multi } = eventMaps(new URLSearchParams(query));
  return { queryStringParameters: single, multiValueQueryStringParameters: multi };
}

/** Reads and drops the rest of a body that was answered without being read; past a bound the connection is closed instead. */
function discardBody(request: IncomingMessage): void {
  let discarded = 0;
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > MAX_DISCARDED_BODY_BYTES) request.socket.destroy();
  });
  request.resume();
}

type BodyRead = { body: Buffer; release(): void } | 'too large' | 'over budget' | 'client gone';

/**
 * A small stand-in for API Gateway (REST, v1 payload): it routes `/v1/...` to the same
 * handlers that run on Lambda, runs the same REQUEST authorizer first, on every request as the
 * stage does (no results cache: lib/inventory-api.ts), and answers with the same gateway
 * responses. Differences from AWS: no usage-plan backstop (the service's own plan limits apply).
 *
 * Every answer is the JSON Error body, those to what Node's parser refuses included. The body
 * is read only once the authorizer has let the request through (and `100 Continue` sent only
 * then); until then it waits in the socket's buffers, and an answered request's unread body is
 * dropped, so unauthenticated bodies are never held. Bodies read are capped per request (10 MiB,
 * as API Gateway) and in all (64 MiB); every stage of a request has a deadline of seconds.
 */
export function createLocalServer(options: LocalServerOptions): Server {
  const compiled = options.routes.map((route) => ({ ...route, ...resourcePattern(route.route.resource) }));
  let bufferedBodyBytes = 0;
  /** Connections already answered by refuseConnection: the parser reports further errors on them, which need no second answer. */
  const refused = new WeakSet<Duplex>();

  // Path parameters stay as sent, percent-encoding included, as API Gateway REST passes them on.
  // As on API Gateway, a path belongs to the resource whose segments, from the first on, are literal
  // the longest (/inventory/adjustments, not /inventory/{petId}; /inventory/reservations/{id}, not
  // /inventory/{petId}/adjustments); a method that resource lacks is no route.
  /** The route of the method on the resource API Gateway would choose for the path, or the methods that resource takes. */
  function match(method: string, path: string): MatchedRoute | { resource: string; methods: string[] } | undefined {
    const resources = compiled.filter((candidate) => candidate.pattern.test(path));
    const [resource] = resources.map((candidate) => candidate.route.resource).sort(byLiteralPrecedence);
    if (resource === undefined) return undefined;
    const ofResource = resources.filter((each) => each.route.resource === resource);
    const candidate = ofResource.find((each) => each.route.method === method);
    if (!candidate) return { resource, methods: ofResource.map((each) => each.route.method) };
    const found = candidate.pattern.exec(path)!;
    const entries = candidate.names.map((name, index) => [name, found[index + 1]!]);
    return { ...candidate, pathParameters: entries.length > 0 ? Object.fromEntries(entries) : null };
  }

  function readBody(request: IncomingMessage): Promise<BodyRead> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (outcome: BodyRead) => {
        request.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onClose);
        if (typeof outcome === 'string') {
          bufferedBodyBytes -= size;
          request.pause();
        }
        resolve(outcome);
      };
      const onData = (chunk: Buffer) => {
        if (size + chunk.length > MAX_REQUEST_BYTES) return finish('too large');
        if (bufferedBodyBytes + chunk.length > MAX_BUFFERED_BODY_BYTES) return finish('over budget');
        size += chunk.length;
        bufferedBodyBytes += chunk.length;
        chunks.push(chunk);
      };
      const onEnd = () => {
        // Refused meanwhile (its deadline passed and the client was answered 408): the request must not run after all.
        if (refused.has(request.socket)) return finish('client gone');
        let released = false;
        const release = () => {
          if (!released) bufferedBodyBytes -= size;
          released = true;
        };
        finish({ body: Buffer.concat(chunks), release });
      };
      const onClose = () => finish('client gone');
      request.on('data', onData).once('end', onEnd).once('close', onClose).once('error', onClose);
    });
  }

  /** Answers on the socket itself and closes it, after a moment in which what the client still sends is dropped. */
  function refuseConnection(socket: Duplex, answer: GatewayErrorResponse, errorCode?: string): void {
    if (refused.has(socket)) return;
    refused.add(socket);
    logger.info('request refused', { status: answer.status, ...(errorCode ? { error: errorCode } : {}) });
    // Node keeps the response of a request in flight here; once it has sent its headers, nothing more can be said.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(rawAnswer(answer));
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  }

  async function answer(
    request: IncomingMessage,
    response: ServerResponse,
    requestId: string,
    expectsContinue: boolean,
  ): Promise<APIGatewayProxyResult | StreamedAnswer | 'client gone'> {
    const receivedAt = Date.now();
    const target = requestTarget(request.url);
    if (!target) return gatewayResult(protocolRefusals.badTarget);
    if (request.httpVersion === '1.1' && request.headers.host === undefined) return gatewayResult(protocolRefusals.hostRequired);
    const method = request.method ?? 'GET';
    const stagePrefix = `/${API_STAGE_NAME}`;
    // The stage's own address (/v1, as the server prints it) is its resource `/`.
    const path =
      target.path === stagePrefix ? '/' : target.path.startsWith(`${stagePrefix}/`) ? target.path.slice(stagePrefix.length) : undefined;
    // HEAD is answered as GET, and Node sends no body for it: the same status and headers.
    const matched = path === undefined ? undefined : match(method === 'HEAD' ? 'GET' : method, path);
    if (!matched || path === undefined || 'methods' in matched)
      return gatewayResult(
        routeNotFoundAnswer(matched && 'methods' in matched ? matched : undefined),
        {},
        options.uncountedRateLimitHeaders(),
      );
    if (!(declaredLength(request) <= MAX_REQUEST_BYTES)) return gatewayResult(gatewayResponses.REQUEST_TOO_LARGE);

    const gatewayRequest: GatewayRequest = {
      method: matched.route.method,
      resource: matched.route.resource,
      path,
      stage: API_STAGE_NAME,
      ...headerMaps(request),
      ...queryMaps(target.query),
      pathParameters: matched.pathParameters ?? {},
      body: null,
      requestId,
      sourceIp: sourceIpOf(request.socket.remoteAddress),
      protocol: `HTTP/${request.httpVersion}`,
      receivedAt,
    };

    let authorizer: AuthorizerOutcome | null = null;
    if (matched.authorized !== false) {
      const authorizedAt = performance.now();
      try {
        const result = await options.authorizer(authorizerEvent(gatewayRequest), lambdaContext(requestId));
        // Every statement applies to the whole stage, so one Deny denies this request.
        if (result.policyDocument.Statement.some((statement) => statement.Effect === 'Deny'))
          return gatewayResult(gatewayResponses.ACCESS_DENIED, result.context);
        authorizer = {
          principalId: result.principalId,
          context: result.context ?? {},
          latencyMs: Math.round(performance.now() - authorizedAt),
        };
      } catch {
        return gatewayResult(gatewayResponses.AUTHORIZER_FAILURE);
      }
    }

    if (expectsContinue) response.writeContinue();
    const read = await readBody(request);
    if (read === 'client gone') return read;
    if (read === 'too large') return gatewayResult(gatewayResponses.REQUEST_TOO_LARGE);
    if (read === 'over budget') return gatewayResult(protocolRefusals.bodiesOverBudget);

    const event = proxyEvent({ ...gatewayRequest, body: read.body.length > 0 ? read.body.toString('utf8') : null }, authorizer);
    try {
      if (isStreamedHandler(matched.handler)) {
        for (const [name, value] of Object.entries(requestIdHeaders(requestId))) response.setHeader(name, value);
        const outcome = await streamToHttp(matched.handler, event, lambdaContext(requestId, FUNCTION_TIMEOUT_SECONDS.streamed), response);
        if (outcome.headSent) return { statusCode: outcome.statusCode, streamed: true };
        // Logged with nginx's 499: the client closed the connection before the answer began.
        if ('clientGone' in outcome) return { statusCode: 499, streamed: true };
        logger.error('handler threw', { requestId, error: String(outcome.failure) });
        return gatewayResult(gatewayResponses.DEFAULT_5XX);
      }
      return await matched.handler(event, lambdaContext(requestId));
    } catch (error) {
      // On AWS an exception escaping the function is a 502 from the integration, answered by DEFAULT_5XX.
      logger.error('handler threw', { requestId, error: String(error) });
      return gatewayResult(gatewayResponses.DEFAULT_5XX);
    } finally {
      read.release();
    }
  }

  async function serve(request: IncomingMessage, response: ServerResponse, expectsContinue: boolean): Promise<void> {
    const requestId = randomUUID();
    const startedAt = performance.now();
    let result: APIGatewayProxyResult | StreamedAnswer | 'client gone';
    try {
      result = await answer(request, response, requestId, expectsContinue);
    } catch (error) {
      logger.error('local server failure', { requestId, error: String(error) });
      result = gatewayResult(gatewayResponses.DEFAULT_5XX);
    }
    // A client that left, or whose connection was refused meanwhile (a deadline passed), gets no second answer.
    if (result === 'client gone' || refused.has(request.socket) || (request.socket.destroyed && !('streamed' in result))) return;
    if (!('streamed' in result)) send(response, result, requestId);
    if (!request.complete) discardBody(request);
    logger.info('request', {
      requestId,
      method: request.method,
      path: request.url,
      status: result.statusCode,
      latencyMs: Math.round((performance.now() - startedAt) * 100) / 100,
    });
  }

  const server = createServer(
    {
      headersTimeout: CLIENT_TIMEOUTS.headers,
      requestTimeout: CLIENT_TIMEOUTS.request,
      keepAliveTimeout: CLIENT_TIMEOUTS.keepAlive,
      connectionsCheckingInterval: DEADLINE_CHECK_INTERVAL_MS,
      // Node would answer a missing Host with an empty 400; the server answers it itself, with the Error body.
      requireHostHeader: false,
    },
    (request, response) => void serve(request, response, false),
  );
  server.setTimeout(CLIENT_TIMEOUTS.idleSocket);
  // A client may half-close its side once its request is sent (shutdown of writing): HTTP/1.1 still owes it the answer,
  // so the end of its side does not end the request. A client that is gone is told from one that half-closed when the
  // answer's bytes are refused (a reset), which ends a streamed answer at its next write. (Node's own property, which
  // its types leave out.)
  Object.assign(server, { httpAllowHalfOpen: true });
  // With this listener Node leaves `100 Continue` to the server, which sends it once the key is accepted.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => void serve(request, response, true));
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    send(response, gatewayResult(protocolRefusals.expectation), randomUUID());
    if (!request.complete) discardBody(request);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A client that reset its connection (one that let go of an answer it did not read, or that closed its side and left
    // while the answer was written: EPIPE) was refused nothing: nothing to say or log.
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE') socket.destroy();
    else refuseConnection(socket, refusalFor(error.code), error.code);
  });
  // CONNECT asks for a tunnel, which no route offers; without this listener Node would close the connection silently.
  server.on('connect', (_request: IncomingMessage, socket: Duplex) =>
    refuseConnection(socket, gatewayResponses.MISSING_AUTHENTICATION_TOKEN),
  );
  return server;
}

export async function listen(server: NetServer, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `Port ${port} on ${host} is in use by another program; start with another port, e.g. PORT=3001 npm start (PORT=0 picks a free one).`,
            )
          : error,
      ),
    );
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}
