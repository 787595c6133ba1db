import { FAILED_AUTHENTICATIONS_POLICY, uncountedState } from '../functions/domain/failed-authentications.ts';
import { RATE_LIMIT_HEADER, RATE_LIMIT_RESET_HEADER, rateLimitHeaders } from '../functions/http/rate-limit-headers.ts';
import { JSON_HEADERS } from '../functions/http/json.ts';
import { staticHeaderValue } from './static-header-value.ts';

/**
 * What a mock integration's answer carries, which no window counts (functions/domain/failed-
 * authentications.ts, uncountedState): the source address window's limit, all of it remaining,
 * and its policy. Static values; X-RateLimit-Reset and RateLimit depend on the request's time
 * (UNCOUNTED_RATE_LIMIT_TEMPLATE).
 */
const { [RATE_LIMIT_RESET_HEADER]: _reset, [RATE_LIMIT_HEADER]: _state, ...uncountedStatic } = rateLimitHeaders(uncountedState(0));
export const UNCOUNTED_RATE_LIMIT_HEADERS: Readonly<Record<string, string>> = uncountedStatic;

/** The JSON headers and UNCOUNTED_RATE_LIMIT_HEADERS, as method response parameters: a mock integration's JSON answer. */
export const UNCOUNTED_RATE_LIMIT_PARAMETERS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries({ ...JSON_HEADERS, ...UNCOUNTED_RATE_LIMIT_HEADERS }).map(([name, value]) => [
    `method.response.header.${name}`,
    staticHeaderValue(value),
  ]),
);

const { limit } = uncountedState(0);

/**
 * The start of a mock integration's response template that sets X-RateLimit-Reset to the end of
 * the request's clock minute and RateLimit to the whole limit remaining for the seconds until
 * then, as uncountedState computes them: Velocity divides integers exactly. The policy's name
 * is quoted (a structured-field string), and a double-quoted Velocity string cannot hold a
 * quote, so it comes from a single-quoted one. It writes nothing into the body.
 */
export const UNCOUNTED_RATE_LIMIT_TEMPLATE = [
  '#set($minuteEndsAt = $context.requestTimeEpoch / 60000 * 60 + 60)',
  '#set($secondsLeft = $minuteEndsAt - $context.requestTimeEpoch / 1000)',
  `#set($policy = '"${FAILED_AUTHENTICATIONS_POLICY}"')`,
  `#set($context.responseOverride.header.${RATE_LIMIT_RESET_HEADER} = "$minuteEndsAt")`,
  `#set($context.responseOverride.header.${RATE_LIMIT_HEADER} = "$policy;r=${limit};t=$secondsLeft")`,
].join('');
