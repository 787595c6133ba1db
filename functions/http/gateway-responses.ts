import { ERROR_MESSAGES, ErrorCode } from '../domain/errors.ts';
import { DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE, FAILED_AUTHENTICATIONS_POLICY } from '../domain/failed-authentications.ts';
import type { WindowKind } from '../domain/plan-limiter.ts';
import { rateLimitState, type WindowState } from '../domain/rate-limit-state.ts';
import {
  RATE_LIMIT_HEADER,
  RATE_LIMIT_LIMIT_HEADER,
  RATE_LIMIT_POLICY_HEADER,
  RATE_LIMIT_REMAINING_HEADER,
  RATE_LIMIT_RESET_HEADER,
  rateLimitField,
  rateLimitHeaders,
} from './rate-limit-headers.ts';
import type { ErrorBody } from '../domain/schemas.ts';
import { API_STAGE_NAME } from '../routes.ts';
import { ERROR_STATUSES, errorBody, RETRY_AFTER_HEADER } from './error-statuses.ts';

/**
 * The answers API Gateway gives on its own (before or instead of our functions), restated
 * in the contract's Error shape. The CDK stack installs them as gateway responses; the local
 * server answers with the same entries, so a client sees one behaviour in both places.
 * Gateway responses are static templates, but for header values mapped from the authorizer's
 * context (`fromAuthorizer`), which only a Deny of the authorizer provides (ACCESS_DENIED).
 */
export interface GatewayErrorResponse {
  /** Its code's (gatewayAnswer), but for the local server's refusals of malformed HTTP (408, 417, 431...). */
  status: number;
  code: ErrorCode;
  message: string;
  headers?: Readonly<Record<string, string>>;
  /** Header name → key of the authorizer's context whose value it carries ($context.authorizer.<key>). */
  fromAuthorizer?: Readonly<Record<string, string>>;
}

/** A gateway answer with the status of its code (http/error-statuses.ts). */
export function gatewayAnswer(
  code: ErrorCode,
  message: string,
  more: Pick<GatewayErrorResponse, 'headers' | 'fromAuthorizer'> = {},
): GatewayErrorResponse {
  return { status: ERROR_STATUSES[code], code, message, ...more };
}

/** Where a Deny of the authorizer puts the address window's rate-limit header values in its context. */
const RATE_LIMIT_CONTEXT_KEYS = {
  [RATE_LIMIT_LIMIT_HEADER]: 'rateLimitLimit',
  [RATE_LIMIT_REMAINING_HEADER]: 'rateLimitRemaining',
  [RATE_LIMIT_RESET_HEADER]: 'rateLimitReset',
  [RATE_LIMIT_POLICY_HEADER]: 'rateLimitPolicy',
  [RATE_LIMIT_HEADER]: 'rateLimit',
} as const;

/** The authorizer context that carries these rate-limit headers to the gateway response. */
export function authorizerRateLimitContext(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(RATE_LIMIT_CONTEXT_KEYS).flatMap(([header, key]) => (headers[header] === undefined ? [] : [[key, headers[header]]])),
  );
}

/**
 * The rate-limit headers of a static answer about one window whose reset it cannot compute
 * (a gateway response is a fixed template): no X-RateLimit-Reset, no `t` in RateLimit.
 */
export function staticRateLimitHeaders(window: Omit<WindowState, 'resetsAt'>): Record<string, string> {
  const unknownReset = { ...window };
  return rateLimitHeaders(rateLimitState([unknownReset], undefined, unknownReset));
}

/**
 * What a static answer can say of the source address's window, which it did not count: its
 * limit, all of it remaining. Its reset (the end of the minute) a static template cannot compute.
 */
const UNCOUNTED_STATIC_HEADERS = staticRateLimitHeaders({
  policy: FAILED_AUTHENTICATIONS_POLICY,
  limit: DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE,
  seconds: 60,
  remaining: DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE,
});

/**
 * A usage plan's own refusals answer for every plan from one template, so they cannot state a
 * plan's quota: RateLimit without RateLimit-Policy (the key's other answers carry the policy).
 * Its throttle is a token bucket refilling at least one request a second, hence `t=1`; its
 * daily quota is the plan's `"day"` window, whose end the template cannot compute.
 */
const usagePlanRefusal = (policy: string, secondsLeft?: number) => ({
  [RATE_LIMIT_REMAINING_HEADER]: '0',
  [RATE_LIMIT_HEADER]: rateLimitField([{ policy, remaining: 0, resetsAt: secondsLeft }], 0),
});

/** The usage plan's throttle (functions/domain/plans.ts, edgeBackstop) in RateLimit: not a window of the contract's. */
export const USAGE_PLAN_THROTTLE_POLICY = 'burst';

/** A refused key (malformed, unknown, revoked, or any from a full address): the authorizer's Deny, with the address window. */
const unauthorized = gatewayAnswer(ErrorCode.unauthorized, ERROR_MESSAGES.unauthorized, { fromAuthorizer: RATE_LIMIT_CONTEXT_KEYS });
/** A 401 API Gateway would give on its own (none of ours reaches it: see UNAUTHORIZED below), which no window counts and whose minute its static template cannot know. */
const unauthorizedByGateway = gatewayAnswer(ErrorCode.unauthorized, ERROR_MESSAGES.unauthorized, { headers: UNCOUNTED_STATIC_HEADERS });
/**
 * What a 404 of a path no resource has says: where the operations are. A request without the
 * stage's segment never reaches a stage on AWS (API Gateway answers it itself); locally it is
 * answered so too.
 */
export const NO_SUCH_PATH_MESSAGE = `No operation exists at this path. Every path starts with /${API_STAGE_NAME}, as the base address ends in it (/${API_STAGE_NAME}/inventory, /${API_STAGE_NAME}/inventory/{petId}, …); the reference at /${API_STAGE_NAME}/docs lists every operation.`;

const routeNotFound = gatewayAnswer(ErrorCode.routeNotFound, NO_SUCH_PATH_MESSAGE, { headers: UNCOUNTED_STATIC_HEADERS });

/**
 * What a 404 of a method the path lacks says: the methods it takes. Static per resource, so the
 * stage's mock integration of each resource (lib/inventory-api.ts) and the local server say the same.
 */
export function methodNotFoundMessage(resource: string, methods: readonly string[]): string {
  const path = `/${API_STAGE_NAME}${resource === '/' ? '' : resource}`;
  const sorted = [...methods].sort();
  const list = sorted.length === 1 ? sorted[0] : `${sorted.slice(0, -1).join(', ')} and ${sorted.at(-1)}`;
  return `${path} takes ${list} only; no operation answers another method there. The reference at /${API_STAGE_NAME}/docs lists every operation.`;
}
const unavailable = gatewayAnswer(ErrorCode.serviceUnavailable, ERROR_MESSAGES.serviceUnavailable, {
  headers: { [RETRY_AFTER_HEADER]: '1' },
});
const internal = gatewayAnswer(ErrorCode.internal, ERROR_MESSAGES.internal);

/**
 * The 404 of a path or method no operation has, which the stage answers from a mock integration
 * (the headers it computes are added there): for a resource that has methods, methodNotFoundMessage's
 * words, else NO_SUCH_PATH_MESSAGE's.
 */
export function routeNotFoundAnswer(methodsOfPath?: { resource: string; methods: readonly string[] }): GatewayErrorResponse {
  const message = methodsOfPath?.methods.length
    ? methodNotFoundMessage(methodsOfPath.resource, methodsOfPath.methods)
    : routeNotFound.message;
  return { status: routeNotFound.status, code: routeNotFound.code, message };
}

export const gatewayResponses = {
  // The authorizer denies every key it refuses (functions/handlers/authorizer-handler.ts).
  ACCESS_DENIED: unauthorized,
  // A request whose identity source (the source address, always present: lib/inventory-api.ts) is missing, which API
  // Gateway refuses without calling the authorizer, or an authorizer that throws "Unauthorized", which ours never does:
  // a request without Authorization reaches the authorizer and gets its Deny, with the address window (ACCESS_DENIED).
  UNAUTHORIZED: unauthorizedByGateway,
  // A key the authorizer admitted but API Gateway's usage plans do not know (or disabled).
  INVALID_API_KEY: unauthorizedByGateway,
  EXPIRED_TOKEN: unauthorizedByGateway,
  INVALID_SIGNATURE: unauthorizedByGateway,
  // An unknown path or method outside the stage's catch-all methods (lib/inventory-api.ts): 403 "Missing Authentication Token".
  MISSING_AUTHENTICATION_TOKEN: routeNotFound,
  RESOURCE_NOT_FOUND: routeNotFound,
  THROTTLED: gatewayAnswer(ErrorCode.rateLimited, 'Too many requests; retry after the time in Retry-After, with exponential backoff.', {
    headers: { [RETRY_AFTER_HEADER]: '1', ...usagePlanRefusal(USAGE_PLAN_THROTTLE_POLICY, 1) },
  }),
  QUOTA_EXCEEDED: gatewayAnswer(
    ErrorCode.quotaExceeded,
    'The daily request quota of this API key is used up; retry after the time in Retry-After.',
    { headers: { [RETRY_AFTER_HEADER]: '3600', ...usagePlanRefusal('day' satisfies WindowKind) } },
  ),
  BAD_REQUEST_BODY: gatewayAnswer(ErrorCode.invalidBody, 'The request body is invalid.'),
  BAD_REQUEST_PARAMETERS: gatewayAnswer(ErrorCode.invalidQuery, 'The request parameters are invalid.'),
  REQUEST_TOO_LARGE: gatewayAnswer(ErrorCode.payloadTooLarge, 'The request is too large.'),
  UNSUPPORTED_MEDIA_TYPE: gatewayAnswer(ErrorCode.unsupportedMediaType, ERROR_MESSAGES.unsupportedMediaType),
  AUTHORIZER_FAILURE: unavailable,
  INTEGRATION_FAILURE: unavailable,
  INTEGRATION_TIMEOUT: unavailable,
  AUTHORIZER_CONFIGURATION_ERROR: internal,
  API_CONFIGURATION_ERROR: internal,
  DEFAULT_4XX: gatewayAnswer(ErrorCode.badRequest, 'The request could not be processed.'),
  DEFAULT_5XX: internal,
} as const satisfies Record<string, GatewayErrorResponse>;

export function gatewayErrorBody(answer: GatewayErrorResponse): ErrorBody {
  return errorBody(answer.status, answer.code, answer.message);
}
