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
 * so it is refused. Two Authorization headers are 401, here as in the authorizer, which refuses them
 * first: a function never depends on which component read the header.
 */
export const SINGLE_VALUE_HEADERS = [AUTHORIZATION_HEADER, 'Content-Type', IDEMPOTENCY_KEY_HEADER] as const;

/**
 * List-valued headers the functions read. HTTP lets a client send such a list on several lines,
 * which mean what one line of them joined with commas means (RFC 9110 5.3); API Gateway's
 * `headers`, and the header normalizer, would keep one line of them.
 */
export const LIST_HEADERS = ['If-Match', 'Accept-Encoding'] as const;

type HeaderMaps = Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>;

const isNamed = (name: string) => (key: string) => key.toLowerCase() === name.toLowerCase();

/**
 * Every value the client sent under this name, whatever its case: every line is in
 * multiValueHeaders, on AWS and locally; an event without it has the values of `headers`.
 */
function linesOf(event: HeaderMaps, name: string): string[] {
  const named = isNamed(name);
  const multi = Object.entries(event.multiValueHeaders ?? {}).flatMap(([key, values]) => (named(key) ? (values ?? []) : []));
  const single = Object.entries(event.headers ?? {}).flatMap(([key, value]) => (named(key) && value !== undefined ? [value] : []));
  return multi.length >= single.length ? multi : single;
}

/** The lines of a list-valued header as the one line they mean, under the name in lower case, the name the normalizer gives it. */
function joinLines(event: HeaderMaps, name: string): void {
  const lines = linesOf(event, name);
  if (lines.length < 2) return;
  const named = isNamed(name);
  const others = <Value>(map: Record<string, Value> | null) => Object.fromEntries(Object.entries(map ?? {}).filter(([key]) => !named(key)));
  event.headers = { ...others(event.headers), [name.toLowerCase()]: lines.join(', ') };
  event.multiValueHeaders = { ...others(event.multiValueHeaders), [name.toLowerCase()]: lines };
}

/**
 * Two middlewares: `observe` runs before the header normalizer (which folds the spellings of a
 * name into one and keeps one of their values): it notes a single-valued header sent twice and
 * joins the lines of a list-valued one. `refuse` runs after the plan limits, so that the 400 of a
 * repeated single-valued header carries the X-RateLimit-* headers every answer of a function carries.
 */
export function repeatedHeaders(): { observe: MiddlewareObj<APIGatewayProxyEvent>; refuse: MiddlewareObj<APIGatewayProxyEvent> } {
  const repeated = new WeakMap<APIGatewayProxyEvent, { name: string; count: number }>();
  return {
    observe: {
      before: ({ event }) => {
        for (const name of LIST_HEADERS) joinLines(event, name);
        for (const name of SINGLE_VALUE_HEADERS) {
          const count = linesOf(event, name).length;
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
