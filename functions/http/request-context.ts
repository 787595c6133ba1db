import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { headersOnEveryAnswer, type ResponseHead } from './answer-headers.ts';
import { COLD_START_METRIC, logger, withRequestLogKeys, xrayTraceIdFrom } from '../logger.ts';

/** The answer header that names the request: API Gateway's request id, as its access log and our logs record it. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** The part of an API Gateway event (proxy or authorizer) that names the request. */
interface GatewayEvent {
  requestContext?: { requestId?: string } | null;
}

/** The first invocation of this execution environment is its cold start. */
let coldStart = true;

/**
 * Serves one invocation with its request's ids on every log and metric line written meanwhile,
 * wherever the line comes from (a middleware, the domain's callbacks, an adapter). A wrapper
 * rather than a Middy middleware: the ids must hold for the whole Middy stack, and a middleware
 * runs inside it. On AWS, Lambda sets _X_AMZN_TRACE_ID for each invocation.
 */
export function inRequestContext<Event extends GatewayEvent, Rest extends unknown[], Result>(
  handle: (event: Event, ...rest: Rest) => Promise<Result>,
): (event: Event, ...rest: Rest) => Promise<Result> {
  const served = (event: Event, ...rest: Rest) =>
    withRequestLogKeys({ requestId: event.requestContext?.requestId, xrayTraceId: xrayTraceIdFrom(process.env._X_AMZN_TRACE_ID) }, () => {
      if (coldStart) {
        coldStart = false;
        logger.metric(COLD_START_METRIC, 1);
      }
      return handle(event, ...rest);
    });
  // Keeps the marks the runtime reads (a streamed handler's awslambda.streamifyResponse marker).
  return Object.assign(served, handle);
}

/**
 * X-Request-Id on every answer of the function, success and error alike: registered before the
 * error formatter, so that its onError runs after the formatter has built the error's answer.
 */
export function requestIdHeader<Result extends ResponseHead>(): MiddlewareObj<APIGatewayProxyEvent, Result> {
  return headersOnEveryAnswer<Result>((request) => {
    const requestId = request.event.requestContext?.requestId;
    return requestId ? { [REQUEST_ID_HEADER]: requestId } : undefined;
  });
}
