import { uncountedState } from '../functions/domain/failed-authentications.ts';
import { JSON_HEADERS } from '../functions/http/json.ts';
import { staticHeaderValue } from './static-header-value.ts';

/**
 * What a mock integration's answer carries, which no window counts (functions/domain/failed-
 * authentications.ts, uncountedState): the source address window's limit, all of it remaining.
 * Static values; X-RateLimit-Reset depends on the request's time (UNCOUNTED_RATE_LIMIT_TEMPLATE).
 */
const uncounted = uncountedState(0);
export const UNCOUNTED_RATE_LIMIT_HEADERS: Readonly<Record<string, string>> = {
  'X-RateLimit-Limit': String(uncounted.limit),
  'X-RateLimit-Remaining': String(uncounted.remaining),
};

/** The JSON headers and UNCOUNTED_RATE_LIMIT_HEADERS, as method response parameters: a mock integration's JSON answer. */
export const UNCOUNTED_RATE_LIMIT_PARAMETERS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries({ ...JSON_HEADERS, ...UNCOUNTED_RATE_LIMIT_HEADERS }).map(([name, value]) => [
    `method.response.header.${name}`,
    staticHeaderValue(value),
  ]),
);

/**
 * The start of a mock integration's response template that sets X-RateLimit-Reset to the end of
 * the request's clock minute, as uncountedState computes it: Velocity divides integers exactly.
 * It writes nothing into the body.
 */
export const UNCOUNTED_RATE_LIMIT_TEMPLATE =
  '#set($minuteEndsAt = $context.requestTimeEpoch / 60000 * 60 + 60)#set($context.responseOverride.header.X-RateLimit-Reset = "$minuteEndsAt")';
