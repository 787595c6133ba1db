import { ERROR_MESSAGES, errorBody, ErrorCode } from '../domain/errors.ts';
import { DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE } from '../domain/failed-authentications.ts';
import type { ErrorBody } from '../domain/schemas.ts';

/**
 * The answers API Gateway gives on its own (before or instead of our functions), restated
 * in the contract's Error shape. The CDK stack installs them as gateway responses; the local
 * server answers with the same entries, so a client sees one behaviour in both places.
 * Gateway responses are static templates, but for header values mapped from the authorizer's
 * context (`fromAuthorizer`), which only a Deny of the authorizer provides (ACCESS_DENIED).
 */
export interface GatewayErrorResponse {
  status: number;
  code: ErrorCode;
  message: string;
  headers?: Readonly<Record<string, string>>;
  /** Header name → key of the authorizer's context whose value it carries ($context.authorizer.<key>). */
  fromAuthorizer?: Readonly<Record<string, string>>;
}

/** Where a Deny of the authorizer puts the address window's X-RateLimit-* values in its context. */
const RATE_LIMIT_CONTEXT_KEYS = {
  'X-RateLimit-Limit': 'rateLimitLimit',
  'X-RateLimit-Remaining': 'rateLimitRemaining',
  'X-RateLimit-Reset': 'rateLimitReset',
} as const;

/** The authorizer context that carries these X-RateLimit-* headers to the gateway response. */
export function authorizerRateLimitContext(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(RATE_LIMIT_CONTEXT_KEYS).flatMap(([header, key]) => (headers[header] === undefined ? [] : [[key, headers[header]]])),
  );
}

/**
 * What a static answer can say of the source address's window, which it did not count: its
 * limit, all of it remaining. Its reset (the end of the minute) a static template cannot compute.
 */
const UNCOUNTED_STATIC_HEADERS = {
  'X-RateLimit-Limit': String(DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE),
  'X-RateLimit-Remaining': String(DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE),
} as const;

/** A refused key (missing, malformed, unknown, revoked): the authorizer's Deny, with the address window it was counted in. */
const unauthorized: GatewayErrorResponse = {
  status: 401,
  code: ErrorCode.unauthorized,
  message: ERROR_MESSAGES.unauthorized,
  fromAuthorizer: RATE_LIMIT_CONTEXT_KEYS,
};
/** A key API Gateway itself refuses after the authorizer admitted it: still a bad key, but not counted in any window. */
const unauthorizedByGateway: GatewayErrorResponse = {
  status: 401,
  code: ErrorCode.unauthorized,
  message: ERROR_MESSAGES.unauthorized,
  headers: UNCOUNTED_STATIC_HEADERS,
};
const routeNotFound: GatewayErrorResponse = {
  status: 404,
  code: ErrorCode.routeNotFound,
  message: 'No operation exists at this path and method.',
  headers: UNCOUNTED_STATIC_HEADERS,
};
const unavailable: GatewayErrorResponse = {
  status: 503,
  code: ErrorCode.serviceUnavailable,
  message: ERROR_MESSAGES.serviceUnavailable,
  headers: { 'Retry-After': '1' },
};
const internal: GatewayErrorResponse = { status: 500, code: ErrorCode.internal, message: ERROR_MESSAGES.internal };

/** The 404 of a path or method no operation has, which the stage answers from a mock integration (the headers it computes are added there). */
export const ROUTE_NOT_FOUND = {
  status: routeNotFound.status,
  code: routeNotFound.code,
  message: routeNotFound.message,
} as const satisfies GatewayErrorResponse;

export const gatewayResponses = {
  // The authorizer denies every key it refuses (functions/handlers/authorizer-handler.ts).
  ACCESS_DENIED: unauthorized,
  // The authorizer throws "Unauthorized" for one reason only, an address whose window of failed authentications is full.
  UNAUTHORIZED: {
    status: 429,
    code: ErrorCode.tooManyFailedAuthentications,
    message: `This address sent more than ${DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE} requests without a valid API key within a minute; retry after the time in Retry-After with a valid key.`,
    // At most the rest of the minute; the static template cannot compute the minute's end, so it says the longest wait.
    headers: { 'Retry-After': '60', 'X-RateLimit-Limit': String(DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE), 'X-RateLimit-Remaining': '0' },
  },
  // A key the authorizer admitted but API Gateway's usage plans do not know (or disabled).
  INVALID_API_KEY: unauthorizedByGateway,
  EXPIRED_TOKEN: unauthorizedByGateway,
  INVALID_SIGNATURE: unauthorizedByGateway,
  // An unknown path or method outside the stage's catch-all methods (lib/inventory-api.ts): 403 "Missing Authentication Token".
  MISSING_AUTHENTICATION_TOKEN: routeNotFound,
  RESOURCE_NOT_FOUND: routeNotFound,
  THROTTLED: {
    status: 429,
    code: ErrorCode.rateLimited,
    message: 'Too many requests; retry after the time in Retry-After, with exponential backoff.',
    headers: { 'Retry-After': '1', 'X-RateLimit-Remaining': '0' },
  },
  QUOTA_EXCEEDED: {
    status: 429,
    code: ErrorCode.quotaExceeded,
    message: 'The daily request quota of this API key is used up; retry after the time in Retry-After.',
    headers: { 'Retry-After': '3600', 'X-RateLimit-Remaining': '0' },
  },
  BAD_REQUEST_BODY: { status: 400, code: ErrorCode.invalidBody, message: 'The request body is invalid.' },
  BAD_REQUEST_PARAMETERS: { status: 400, code: ErrorCode.invalidQuery, message: 'The request parameters are invalid.' },
  REQUEST_TOO_LARGE: { status: 413, code: ErrorCode.payloadTooLarge, message: 'The request is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, code: ErrorCode.unsupportedMediaType, message: ERROR_MESSAGES.unsupportedMediaType },
  AUTHORIZER_FAILURE: unavailable,
  INTEGRATION_FAILURE: unavailable,
  INTEGRATION_TIMEOUT: unavailable,
  AUTHORIZER_CONFIGURATION_ERROR: internal,
  API_CONFIGURATION_ERROR: internal,
  DEFAULT_4XX: { status: 400, code: ErrorCode.badRequest, message: 'The request could not be processed.' },
  DEFAULT_5XX: internal,
} as const satisfies Record<string, GatewayErrorResponse>;

export function gatewayErrorBody(answer: GatewayErrorResponse): ErrorBody {
  return errorBody(answer.status, answer.code, answer.message);
}
