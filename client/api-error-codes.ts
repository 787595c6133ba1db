/**
 * Generated from functions/domain/errors.ts by `npm run openapi`. Do not edit.
 * Every `code` an Error body of the API can carry.
 */
export const API_ERROR_CODES = [
  'API_KEY_TEMPORARILY_BANNED',
  'BAD_REQUEST',
  'IDEMPOTENCY_KEY_REQUIRED',
  'IDEMPOTENCY_KEY_REUSED',
  'INSUFFICIENT_STOCK',
  'INTERNAL_ERROR',
  'INVALID_BODY',
  'INVALID_PET_ID',
  'INVALID_QUERY',
  'MALFORMED_JSON',
  'PAYLOAD_TOO_LARGE',
  'PET_NOT_FOUND',
  'PRECONDITION_FAILED',
  'QUANTITY_CHANGED',
  'QUANTITY_OUT_OF_RANGE',
  'QUOTA_EXCEEDED',
  'RATE_LIMIT_EXCEEDED',
  'ROUTE_NOT_FOUND',
  'SERVICE_UNAVAILABLE',
  'UNAUTHORIZED',
  'UNSUPPORTED_MEDIA_TYPE',
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];
