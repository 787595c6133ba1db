import { ErrorCode } from '../domain/errors.ts';
import type { ErrorBody } from '../domain/schemas.ts';

/**
 * The HTTP status of every error code: the one place a code becomes a status, for the service's
 * own errors (http/error-formatter.ts), API Gateway's answers (http/gateway-responses.ts) and the
 * refusals an Idempotency-Key's record keeps. A code without a status does not compile.
 */
export const ERROR_STATUSES = {
  [ErrorCode.invalidBody]: 400,
  [ErrorCode.malformedJson]: 400,
  [ErrorCode.invalidPetId]: 400,
  [ErrorCode.invalidQuery]: 400,
  [ErrorCode.badRequest]: 400,
  [ErrorCode.idempotencyKeyRequired]: 400,
  [ErrorCode.unauthorized]: 401,
  [ErrorCode.petNotFound]: 404,
  [ErrorCode.lowStockThresholdNotFound]: 404,
  [ErrorCode.routeNotFound]: 404,
  [ErrorCode.reservationNotFound]: 404,
  // The request is valid but the stock it meets refuses it; nothing was written.
  [ErrorCode.quantityChanged]: 409,
  [ErrorCode.insufficientStock]: 409,
  [ErrorCode.quantityOutOfRange]: 409,
  [ErrorCode.tooManyHolds]: 409,
  // A reservation already settled otherwise; nothing was written.
  [ErrorCode.reservationExpired]: 409,
  [ErrorCode.reservationReleased]: 409,
  [ErrorCode.reservationCommitted]: 409,
  // An If-Match that names a version the entry no longer has; nothing was written.
  [ErrorCode.preconditionFailed]: 412,
  [ErrorCode.payloadTooLarge]: 413,
  [ErrorCode.unsupportedMediaType]: 415,
  [ErrorCode.idempotencyKeyReused]: 422,
  [ErrorCode.rateLimited]: 429,
  [ErrorCode.quotaExceeded]: 429,
  [ErrorCode.keyBanned]: 429,
  [ErrorCode.internal]: 500,
  [ErrorCode.serviceUnavailable]: 503,
} as const satisfies Record<ErrorCode, number>;

/** Seconds to wait before retrying, on 429 and 503 answers. */
export const RETRY_AFTER_HEADER = 'Retry-After';

/**
 * The contract's Error object; `status` repeats the HTTP status. Every Error body is made here: for
 * the service's own errors, API Gateway's answers and the local server's refusals of malformed HTTP.
 */
export function errorBody(status: number, code: ErrorCode, message: string): ErrorBody {
  return { code, message, status };
}
