import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { UnauthorizedError } from '../domain/api-keys.ts';
import { ApiError, ErrorCode } from '../domain/errors.ts';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency-key.ts';

const AUTHORIZATION_HEADER = 'Authorization';

/**
 * Headers the functions read as one value. Sent twice (two lines, or two spellings of the
 * name), the request is ambiguous: which one a component keeps is an accident of its code (Node
 * joins some with a comma, API Gateway's `headers` keeps the last, a header normalizer either),
 * so it is refused. List-valued headers (Accept-Encoding, If-None-Match) may repeat, as HTTP
 * allows. Two Authorization headers are 401, here as in the authorizer: API Gateway keys its
 * cache of the authorizer's answers by one of them, so an Allow kept for it lets the request in.
 */
export const SINGLE_VALUE_HEADERS = [AUTHORIZATION_HEADER, 'Content-Type', IDEMPOTENCY_KEY_HEADER] as const;

/** How many values the client sent under this name, whatever their case: every line is in multiValueHeaders, on AWS and locally. */
function valuesOf(event: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>, name: string): number {
  const lower = name.toLowerCase();
  const count = <Value>(map: Record<string, Value> | null | undefined, size: (value: Value) => number) =>
    Object.entries(map ?? {}).reduce((total, [key, value]) => total + (key.toLowerCase() === lower ? size(value) : 0), 0);
  return Math.max(
    count(event.multiValueHeaders, (values) => values?.length ?? 0),
    count(event.headers, () => 1),
  );
}

/**
 * Two middlewares: `observe` runs before the header normalizer (which folds the spellings of a
 * name into one and loses the count), `refuse` after the plan limits, so that the 400 carries the
 * X-RateLimit-* headers every answer of a function carries.
 */
export function singleValueHeaders(): { observe: MiddlewareObj<APIGatewayProxyEvent>; refuse: MiddlewareObj<APIGatewayProxyEvent> } {
  const repeated = new WeakMap<APIGatewayProxyEvent, { name: string; count: number }>();
  return {
    observe: {
      before: ({ event }) => {
        for (const name of SINGLE_VALUE_HEADERS) {
          const count = valuesOf(event, name);
          if (count > 1) return void repeated.set(event, { name, count });
        }
      },
    },
    refuse: {
      before: ({ event }) => {
        const found = repeated.get(event);
        if (found?.name === AUTHORIZATION_HEADER) throw new UnauthorizedError();
        if (found) throw new ApiError(ErrorCode.badRequest, `The request carries ${found.count} ${found.name} headers; send exactly one.`);
      },
    },
  };
}
