import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { StoreUnavailableError } from '../domain/errors.ts';
import { RateLimitedError, type PlanLimiter } from '../domain/plan-limiter.ts';
import type { RateLimitState } from '../domain/rate-limit-state.ts';
import { rateLimitHeaders } from './rate-limit-headers.ts';
import { logger, SERVICE_METRICS } from '../logger.ts';
import { headersOnEveryAnswer } from './answer-headers.ts';
import { callerFrom } from './caller.ts';
import type { ResponseHead } from './answer-headers.ts';

/**
 * Counts the request against the caller's plan before anything else reads the body, and puts
 * the rate-limit headers (X-RateLimit-*, RateLimit-Policy, RateLimit) on every response to an
 * authenticated request: success, 4xx and 5xx alike.
 *
 * If the counters cannot be reached the request is served (fail-open): an outage of the
 * counting table should not take the inventory down with it, and the usage plan at the
 * edge still bounds traffic. The headers then describe the minute window as if unused,
 * and the fault is logged as the metric UsageCountingUnavailable.
 */
export function planLimits(
  limiter: PlanLimiter,
  /** Started once the caller is known, while the request is counted (planLimitedRead). */
  alongside?: (event: APIGatewayProxyEvent, context: Context) => void,
): MiddlewareObj<APIGatewayProxyEvent, ResponseHead> {
  const headersOf = new WeakMap<APIGatewayProxyEvent, Record<string, string>>();

  return {
    before: async (request) => {
      const caller = callerFrom(request.event);
      alongside?.(request.event, request.context);
      try {
        headersOf.set(request.event, rateLimitHeaders(await limiter.admit(caller.keyId, caller.limits)));
      } catch (error) {
        if (error instanceof RateLimitedError) {
          logger.info('rate limited', { keyId: caller.keyId, code: error.code });
          throw error;
        }
        if (!(error instanceof StoreUnavailableError)) throw error;
        logger.metric(SERVICE_METRICS.usageCountingUnavailable, 1);
        headersOf.set(request.event, rateLimitHeaders(limiter.uncountedState(caller.limits)));
      }
    },
    ...headersOnEveryAnswer((request) => headersOf.get(request.event)),
  };
}

/**
 * planLimits for an operation that only reads: its read goes out with the counting write, so that
 * the request waits for one round trip to the store, not two, and the handler takes the read's
 * outcome with `result`. The count still decides first: a request it refuses (429, a revoked
 * key's 401) is answered as it would be without the read, whose result is dropped unanswered. A
 * write keeps planLimits: nothing may be written for a request the count refuses.
 */
export function planLimitedRead<Result>(limiter: PlanLimiter, read: (event: APIGatewayProxyEvent, context: Context) => Promise<Result>) {
  const reads = new WeakMap<APIGatewayProxyEvent, Promise<Result>>();
  const guard = planLimits(limiter, (event, context) => {
    // Its failures too (a 400 of the path, a 404, the store's 503) wait for the handler, after the count's verdict.
    const started = (async () => read(event, context))();
    started.catch(() => undefined);
    reads.set(event, started);
  });
  return { guard, result: (event: Pick<APIGatewayProxyEvent, 'requestContext'>) => reads.get(event as APIGatewayProxyEvent)! };
}

/**
 * The rate-limit headers on every answer of a route that needs no key (the health check): no window
 * counts it, so it reports the source address's window as its `uncounted` state says.
 */
export function uncountedRateLimit(uncounted: () => RateLimitState): MiddlewareObj<APIGatewayProxyEvent, ResponseHead> {
  return headersOnEveryAnswer(() => rateLimitHeaders(uncounted()));
}
