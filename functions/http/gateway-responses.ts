import { ERROR_MESSAGES, errorBody, ErrorCode } from '../domain/errors.ts';
import type { ErrorBody } from '../domain/schemas.ts';

/**
 * The answers API Gateway gives on its own (before or instead of our functions), restated
 * in the contract's Error shape. The CDK stack installs them as gateway responses; the local
 * server answers with the same entries, so a client sees one behaviour in both places.
 * Gateway responses are static templates: they cannot carry per-key X-RateLimit-* values, so
 * the edge's own 429s say only `X-RateLimit-Remaining: 0`.
 */
export interface GatewayErrorResponse {
  status: number;
  code: ErrorCode;
  message: string;
  headers?: Readonly<Record<string, string>>;
}

const unauthorized: GatewayErrorResponse = {
  status: 401,
  code: ErrorCode.unauthorized,
  message: ERROR_MESSAGES.unauthorized,
};
const routeNotFound: GatewayErrorResponse = {
  status: 404,
  code: ErrorCode.routeNotFound,
  message: 'No operation exists at this path and method.',
};
const unavailable: GatewayErrorResponse = {
  status: 503,
  code: ErrorCode.serviceUnavailable,
  message: ERROR_MESSAGES.serviceUnavailable,
  headers: { 'Retry-After': '1' },
};
const internal: GatewayErrorResponse = { status: 500, code: ErrorCode.internal, message: ERROR_MESSAGES.internal };

export const gatewayResponses = {
  UNAUTHORIZED: unauthorized,
  // The authorizer never denies by policy, so these only arise for a key API Gateway does not know: still a bad key.
  ACCESS_DENIED: unauthorized,
  INVALID_API_KEY: unauthorized,
  EXPIRED_TOKEN: unauthorized,
  INVALID_SIGNATURE: unauthorized,
  // API Gateway answers an unknown path or method with 403 "Missing Authentication Token".
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
