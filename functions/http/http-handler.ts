import middy, { type MiddlewareObj } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { z } from 'zod';
import { StoreUnavailableError } from '../domain/errors.ts';
import { errorFormatter } from './error-formatter.ts';
import { jsonBody } from './json-body.ts';
import { inRequestContext, requestIdHeader } from './request-context.ts';

/** Time kept back from the Lambda timeout to format and return the 503. */
export const TIMEOUT_MARGIN_MS = 500;

export type HttpEvent<Body = unknown> = Omit<APIGatewayProxyEvent, 'body'> & { body: Body };
export type HttpHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

interface HttpHandlerOptions<Schema extends z.ZodType> {
  /** Runs after header normalisation and before the body is read (e.g. plan limits). */
  guards?: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>[];
  body?: Schema;
}

/**
 * The one middleware stack every HTTP function shares:
 * header normalizer → request id → guards → JSON body + zod validation → handler → error formatter,
 * inside the request's log context (its ids on every log and metric line).
 */
export function httpHandler<Schema extends z.ZodType = z.ZodNever>(
  options: HttpHandlerOptions<Schema>,
  handle: (event: HttpEvent<z.infer<Schema>>, context: Context) => Promise<APIGatewayProxyResult>,
): HttpHandler {
  const stack = middy<APIGatewayProxyEvent, APIGatewayProxyResult>({
    // One deadline for the whole request, however many store calls (Scan pages) it makes: the
    // handler is cut short in time for the error formatter to answer 503 with our headers,
    // rather than Lambda's timeout ending in a bare gateway 5xx.
    timeoutEarlyInMillis: TIMEOUT_MARGIN_MS,
    timeoutEarlyResponse: () => {
      throw new StoreUnavailableError({ cause: new Error('the request ran out of time') });
    },
  })
    .use(httpHeaderNormalizer())
    .use(requestIdHeader());
  for (const guard of options.guards ?? []) stack.use(guard);
  if (options.body) stack.use(jsonBody(options.body));
  return inRequestContext(stack.use(errorFormatter()).handler((event, context) => handle(event as HttpEvent<z.infer<Schema>>, context)) as HttpHandler);
}
