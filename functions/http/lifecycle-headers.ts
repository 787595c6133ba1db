import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Deprecation } from '../domain/lifecycle.ts';
import type { ApiRoute } from '../routes.ts';
import { headersOnEveryAnswer } from './answer-headers.ts';
import type { ResponseHead } from './answer-headers.ts';

/**
 * Puts the same headers on every response of an operation, errors included: a client learns
 * that an operation is experimental or deprecated from whatever answer it gets. Used as a
 * guard, so its onError runs after the error formatter has built the response.
 */
export function operationHeaders(headers: Readonly<Record<string, string>>): MiddlewareObj<APIGatewayProxyEvent, ResponseHead> {
  // A stable operation that is not deprecated has none: its answers are left as they are.
  const some = Object.keys(headers).length > 0 ? headers : undefined;
  return headersOnEveryAnswer(() => some);
}

/**
 * An operation's lifecycle headers, as the registry describes it: X-API-Stability unless it is
 * stable, Deprecation, Sunset and Link when it is deprecated. `sunsetAt` is the stage's, when it
 * sets its own (PETS_SUNSET_DATE).
 */
export function lifecycleHeaders(route: Pick<ApiRoute, 'stability' | 'deprecation'>, sunsetAt?: Date): Record<string, string> {
  return {
    ...(route.stability === 'stable' ? {} : { 'X-API-Stability': route.stability }),
    ...(route.deprecation ? deprecationHeaders({ ...route.deprecation, ...(sunsetAt ? { sunsetAt } : {}) }) : {}),
  };
}

/** RFC 9745 `Deprecation` (a structured-field date: `@` and Unix seconds), RFC 8594 `Sunset` (an HTTP-date), and where to read why. */
export function deprecationHeaders({ deprecatedAt, sunsetAt, documentation }: Deprecation): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(deprecatedAt.getTime() / 1000)}`,
    Sunset: sunsetAt.toUTCString(),
    Link: `<${documentation}>; rel="deprecation"; type="text/html", <${documentation}>; rel="sunset"; type="text/html"`,
  };
}
