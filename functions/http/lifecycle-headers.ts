import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Deprecation, OperationStability } from '../domain/lifecycle.ts';
import { headersOnEveryAnswer } from './answer-headers.ts';
import type { ResponseHead } from './answer-headers.ts';

/**
 * Puts the same headers on every response of an operation, errors included: a client learns
 * that an operation is experimental or deprecated from whatever answer it gets. Used as a
 * guard, so its onError runs after the error formatter has built the response.
 */
export function operationHeaders(headers: Readonly<Record<string, string>>): MiddlewareObj<APIGatewayProxyEvent, ResponseHead> {
  return headersOnEveryAnswer(() => headers);
}

export function stabilityHeaders(stability: OperationStability): Record<string, string> {
  return { 'X-API-Stability': stability };
}

/** RFC 9745 `Deprecation` (a structured-field date: `@` and Unix seconds), RFC 8594 `Sunset` (an HTTP-date), and where to read why. */
export function deprecationHeaders({ deprecatedAt, sunsetAt, documentation }: Deprecation): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(deprecatedAt.getTime() / 1000)}`,
    Sunset: sunsetAt.toUTCString(),
    Link: `<${documentation}>; rel="deprecation"; type="text/html", <${documentation}>; rel="sunset"; type="text/html"`,
  };
}
