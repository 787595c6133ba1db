import type { ErrorBody } from './schemas.ts';

/**
 * Every error a client can see is one of these: a status, a stable machine-readable code
 * and a message safe to show. Every Error body is made by errorBody(): for the service's own
 * errors (http/error-formatter.ts) and for API Gateway's answers (http/gateway-responses.ts).
 */
export const ErrorCode = {
  invalidBody: 'INVALID_BODY',
  malformedJson: 'MALFORMED_JSON',
  invalidPetId: 'INVALID_PET_ID',
  invalidQuery: 'INVALID_QUERY',
  badRequest: 'BAD_REQUEST',
  unauthorized: 'UNAUTHORIZED',
  petNotFound: 'PET_NOT_FOUND',
  routeNotFound: 'ROUTE_NOT_FOUND',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  quantityChanged: 'QUANTITY_CHANGED',
  preconditionFailed: 'PRECONDITION_FAILED',
  insufficientStock: 'INSUFFICIENT_STOCK',
  quantityOutOfRange: 'QUANTITY_OUT_OF_RANGE',
  idempotencyKeyRequired: 'IDEMPOTENCY_KEY_REQUIRED',
  idempotencyKeyReused: 'IDEMPOTENCY_KEY_REUSED',
  rateLimited: 'RATE_LIMIT_EXCEEDED',
  quotaExceeded: 'QUOTA_EXCEEDED',
  keyBanned: 'API_KEY_TEMPORARILY_BANNED',
  tooManyFailedAuthentications: 'TOO_MANY_FAILED_AUTHENTICATIONS',
  serviceUnavailable: 'SERVICE_UNAVAILABLE',
  internal: 'INTERNAL_ERROR',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Messages shared by the service's own errors and API Gateway's answers (http/gateway-responses.ts). */
export const ERROR_MESSAGES = {
  unauthorized: 'A valid API key is required: send Authorization: Bearer <API_KEY>.',
  unsupportedMediaType: 'Request body must be sent with Content-Type: application/json.',
  serviceUnavailable: 'The service is temporarily unavailable; retry after the time in Retry-After.',
  /** A write's: it may have been applied before the store stopped answering. */
  serviceUnavailableWrite:
    'The service is temporarily unavailable, and the change may have been applied: retry after the time in Retry-After with the same Idempotency-Key, which applies it once (without one, read the entry before deciding).',
  internal: 'An unexpected error occurred.',
} as const;

/** The contract's Error object; `status` repeats the HTTP status. */
export function errorBody(status: number, code: ErrorCode, message: string): ErrorBody {
  return { code, message, status };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** Headers the response must carry, e.g. Retry-After on 429 and 503. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  toJSON(): ErrorBody {
    return errorBody(this.status, this.code, this.message);
  }
}

export class BadRequestError extends ApiError {
  constructor(code: ErrorCode, message: string) {
    super(400, code, message);
  }
}

export class NotFoundError extends ApiError {
  constructor(code: ErrorCode, message: string) {
    super(404, code, message);
  }
}

/** The request is valid but the stock it meets refuses it; nothing was written. */
export class ConflictError extends ApiError {
  constructor(code: ErrorCode, message: string) {
    super(409, code, message);
  }
}

/** An If-Match that names a version the entry no longer has; nothing was written. */
export class PreconditionFailedError extends ApiError {
  constructor(message: string) {
    super(412, ErrorCode.preconditionFailed, message);
  }
}

export class PayloadTooLargeError extends ApiError {
  constructor(limitBytes: number) {
    super(413, ErrorCode.payloadTooLarge, `Request body exceeds ${limitBytes} bytes.`);
  }
}

export class UnsupportedMediaTypeError extends ApiError {
  constructor() {
    super(415, ErrorCode.unsupportedMediaType, ERROR_MESSAGES.unsupportedMediaType);
  }
}

/** Seconds to wait before retrying, on 429 and 503 answers. */
export const RETRY_AFTER_HEADER = 'Retry-After';

export class ServiceUnavailableError extends ApiError {
  constructor(retryAfterSeconds: number, message: string = ERROR_MESSAGES.serviceUnavailable) {
    super(503, ErrorCode.serviceUnavailable, message, {
      [RETRY_AFTER_HEADER]: String(retryAfterSeconds),
    });
  }
}

export class InternalError extends ApiError {
  constructor() {
    super(500, ErrorCode.internal, ERROR_MESSAGES.internal);
  }
}

/**
 * Thrown by storage adapters when the store is throttled or unreachable after the client's
 * own bounded retries. It carries no AWS types, so the domain and handlers stay portable.
 */
export class StoreUnavailableError extends Error {
  constructor(options?: ErrorOptions) {
    super('The data store is temporarily unavailable.', options);
    this.name = 'StoreUnavailableError';
  }
}
