import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { MiddlewareObj } from '@middy/core';
import type { FailedAuthenticationLimiter } from '../domain/failed-authentications.ts';
import { HealthChecks } from '../domain/health.ts';
import type { InventoryRepository } from '../domain/inventory-service.ts';
import type { RateLimitState } from '../domain/rate-limit-state.ts';
import { rateLimitHeaders } from '../http/rate-limit-headers.ts';
import { headersOnEveryAnswer } from '../http/answer-headers.ts';
import type { ResponseHead } from '../http/answer-headers.ts';
import { httpHandler } from '../http/http-handler.ts';
import { jsonResponse } from '../http/json.ts';

/**
 * Counts the check against its source address (429 past the bound, with that window in its
 * headers). An admitted check reports the address's window of failed authentications, which it
 * does not count, as every answer without a key does.
 */
function perAddress(checks: HealthChecks, uncounted: () => RateLimitState): MiddlewareObj<APIGatewayProxyEvent, ResponseHead> {
  const admitted = new WeakSet<APIGatewayProxyEvent>();
  return {
    before: ({ event }) => {
      checks.admit(event.requestContext?.identity?.sourceIp ?? 'unknown');
      admitted.add(event);
    },
    ...headersOnEveryAnswer((request) => (admitted.has(request.event) ? rateLimitHeaders(uncounted()) : undefined)),
  };
}

/**
 * GET /health: 200 {"status":"ok","store":"ok"}, or 503 SERVICE_UNAVAILABLE (the Error body,
 * Retry-After) when the store does not answer; the store is read at most once a second, and
 * each source address is bounded (see HealthChecks).
 */
export function createHealthHandler({
  inventory,
  failedAuthentications,
}: {
  inventory: Pick<InventoryRepository, 'get'>;
  failedAuthentications: Pick<FailedAuthenticationLimiter, 'uncountedState'>;
}) {
  // The bound of failed authentications, as the limiter is configured (its uncounted window's limit).
  const checks = new HealthChecks(inventory, failedAuthentications.uncountedState().limit);
  return httpHandler({ guards: [perAddress(checks, () => failedAuthentications.uncountedState())] }, async () =>
    jsonResponse(200, await checks.check()),
  );
}
