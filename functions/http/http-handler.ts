import middy, { type MiddlewareObj } from '@middy/core';
import { executionModeStreamifyResponse } from '@middy/core/StreamifyResponse';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Readable, Writable } from 'node:stream';
import type { Deadline } from '../domain/contention.ts';
import { StoreUnavailableError } from '../domain/errors.ts';
import { errorFormatter } from './error-formatter.ts';
import type { ResponseHead } from './answer-headers.ts';
import type { JsonBodyMiddleware } from './json-body.ts';
import { declaredInputs } from './declared-inputs.ts';
import { lifecycleHeaders, operationHeaders } from './lifecycle-headers.ts';
import { inRequestContext, requestIdHeader } from './request-context.ts';
import type { ApiRoute } from '../routes.ts';
import { repeatedHeaders } from './repeated-headers.ts';

/** Time kept back from the Lambda timeout to format and return the 503. */
export const TIMEOUT_MARGIN_MS = 500;

/**
 * What a write that meets other transactions keeps back of the function's time when it starts no
 * more rounds (domain/contention.ts): the calls of a round started just before, the read of what
 * the request did, and the answer, all before the deadline of TIMEOUT_MARGIN_MS answers 503 while
 * a round may still be writing. A store call takes milliseconds, at most 1.5 s an attempt on
 * Lambda (adapters/dynamodb/document-client.ts).
 */
export const ROUNDS_RESERVE_MS = 2_000;

/**
 * The request's deadline for rounds of a contended write: ROUNDS_RESERVE_MS before the function's
 * time is up, or at once when Middy's own deadline has answered for the request (`signal`). Read
 * as each round would start, so it costs no timer.
 */
export function requestDeadline(context: Context, signal: AbortSignal | undefined): Deadline {
  const remaining = context.getRemainingTimeInMillis?.();
  const at = remaining === undefined ? Number.POSITIVE_INFINITY : Date.now() + remaining - ROUNDS_RESERVE_MS;
  return {
    get passed() {
      return signal?.aborted === true || Date.now() >= at;
    },
  };
}

export type HttpEvent<Body = unknown> = Omit<APIGatewayProxyEvent, 'body'> & { body: Body };
export type HttpHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** An answer whose body is written to the client as it is produced. */
export type StreamedResult = Omit<APIGatewayProxyResult, 'body' | 'isBase64Encoded'> & { body: Readable };
/**
 * A handler as Lambda response streaming calls it (awslambda.streamifyResponse): it writes the
 * HTTP prelude (status and headers, as JSON, then 8 NUL bytes) and then the body to
 * `responseStream`, which API Gateway (transfer mode STREAM) turns into a chunked answer.
 */
export type StreamedHttpHandler = (event: APIGatewayProxyEvent, responseStream: Writable, context: Context) => Promise<void>;

interface HttpHandlerOptions<Body, Result extends ResponseHead> {
  /**
   * The operation as the registry describes it: its lifecycle headers go on every answer, and what
   * it does not take (a query parameter, a body) is refused (declared-inputs.ts). Every operation
   * names its route; the health check, outside the contract, names none.
   */
  route?: Pick<ApiRoute, 'operationId' | 'stability' | 'deprecation' | 'query' | 'body' | 'maxBodyBytes'>;
  /** A deprecated operation's sunset, where the stage sets its own (PETS_SUNSET_DATE). */
  sunsetAt?: Date;
  /** Runs after header normalisation and before the body is read (e.g. plan limits). */
  guards?: MiddlewareObj<APIGatewayProxyEvent, Result>[];
  /**
   * The body's parser and validator: jsonBody(<its compiled validator>), passed in rather than
   * built here, so that only the functions that read a body bundle the parser and the validator.
   */
  body?: JsonBodyMiddleware<Body>;
}

/**
 * The one middleware stack every HTTP function shares:
 * repeated headers observed (a list-valued one's lines joined) → header normalizer → request id →
 * guards → the route's lifecycle headers → a repeated single-valued header refused → what the
 * route does not take refused → JSON body + @middy/validator → handler → error formatter,
 * inside the request's log context (its ids on every log and metric line).
 */
function middlewareStack<Result extends ResponseHead>(options: HttpHandlerOptions<unknown, Result>, streamed: boolean) {
  const repeated = repeatedHeaders();
  const stack = middy<APIGatewayProxyEvent, Result>({
    // One deadline for the whole request, however many store calls it makes before it answers:
    // the handler is cut short in time for the error formatter to answer 503 with our headers,
    // rather than Lambda's timeout ending in a bare gateway 5xx.
    timeoutEarlyInMillis: TIMEOUT_MARGIN_MS,
    timeoutEarlyResponse: () => {
      throw new StoreUnavailableError({ cause: new Error('the request ran out of time') });
    },
    ...(streamed ? { executionMode: executionModeStreamifyResponse } : {}),
  })
    .use(repeated.observe as MiddlewareObj<APIGatewayProxyEvent, Result>)
    .use(httpHeaderNormalizer())
    .use(requestIdHeader<Result>());
  for (const guard of options.guards ?? []) stack.use(guard);
  if (options.route)
    stack.use(operationHeaders(lifecycleHeaders(options.route, options.sunsetAt)) as MiddlewareObj<APIGatewayProxyEvent, Result>);
  stack.use(repeated.refuse as MiddlewareObj<APIGatewayProxyEvent, Result>);
  if (options.route) stack.use(declaredInputs(options.route) as MiddlewareObj<APIGatewayProxyEvent, Result>);
  if (options.body) {
    const maxBodyBytes = options.route?.maxBodyBytes;
    if (maxBodyBytes === undefined) throw new Error(`${options.route?.operationId ?? 'a route'} reads a body but states no maxBodyBytes`);
    stack.use(options.body(maxBodyBytes) as MiddlewareObj<APIGatewayProxyEvent, Result>);
  }
  return stack.use(errorFormatter());
}

export function httpHandler<Body = never>(
  options: HttpHandlerOptions<Body, APIGatewayProxyResult>,
  /** `signal`: aborted when Middy's deadline has answered for the request (see requestDeadline). */
  handle: (event: HttpEvent<Body>, context: Context, signal: AbortSignal) => Promise<APIGatewayProxyResult>,
): HttpHandler {
  return inRequestContext(
    middlewareStack<APIGatewayProxyResult>(options, false).handler((event, context, { signal }) =>
      handle(event as HttpEvent<Body>, context, signal),
    ) as HttpHandler,
  );
}

/**
 * The same stack in Middy's response streaming mode: the handler resolves to the status and
 * headers with a body stream, which Middy writes after the prelude. Everything up to that
 * point (guards, the handler's own reads, errors) behaves as in httpHandler: an error before
 * the first byte is the usual Error answer. The deadline above covers that part only; a body
 * stream keeps its own (see jsonArrayStream).
 */
export function streamedHttpHandler(
  options: HttpHandlerOptions<never, StreamedResult>,
  handle: (event: HttpEvent, context: Context) => Promise<StreamedResult>,
): StreamedHttpHandler {
  const streamed = middlewareStack<StreamedResult>(options, true).handler((event, context) =>
    handle(event as HttpEvent, context),
  ) as unknown as StreamedHttpHandler;
  return inRequestContext(
    // Keeps the marks the runtime reads (awslambda.streamifyResponse's), as inRequestContext does.
    Object.assign((event: APIGatewayProxyEvent, responseStream: Writable, context: Context) => {
      const { stream, destroyed } = undestroyable(responseStream);
      return Promise.race([streamed(event, stream, context), destroyed]);
    }, streamed),
  );
}

/**
 * Whether a destroy is the stream's own end: it has finished, and destroys itself once finished
 * (Node's Writable does by default). Lambda's runtime stream (an HTTP request) does neither.
 */
function finishedAndSelfDestroying(stream: Writable): boolean {
  const state = (stream as Writable & { _writableState?: { autoDestroy?: boolean } })._writableState;
  return stream.writableFinished && state?.autoDestroy === true;
}

/**
 * The runtime's response stream as Middy may use it, all but `destroy`. When a body fails after
 * the first byte, Middy's pipeline destroys the stream it writes to; destroying the Lambda
 * runtime's stream cuts its chunked request to the Runtime API without the error trailers, and
 * the runtime client then dies of that request's unhandled error (exit 1, a cold start for the
 * next request). Here a destroy fails the invocation instead (`destroyed` rejects with its
 * error) and leaves the stream open: the runtime, seeing the handler fail, ends the response
 * with its error trailers, which API Gateway passes on as a cut answer, and asks for the next
 * invocation. Middy's pipeline settles once the runtime has ended the stream. Only the destroy a
 * finished Writable makes of itself (autoDestroy, without an error) is passed on.
 */
function undestroyable(responseStream: Writable): { stream: Writable; destroyed: Promise<never> } {
  let fail: (error: unknown) => void = () => undefined;
  const destroyed = new Promise<never>((_resolve, reject) => {
    fail = reject;
  });
  const stream = new Proxy(responseStream, {
    get(target, property, receiver) {
      if (property !== 'destroy') return Reflect.get(target, property, receiver);
      return (error?: Error) => {
        // A finished Writable destroys itself, without an error (autoDestroy): its normal end, passed on.
        if (!error && finishedAndSelfDestroying(target)) return target.destroy();
        fail(error ?? new Error('the response stream was destroyed'));
        return receiver;
      };
    },
  });
  return { stream, destroyed };
}
