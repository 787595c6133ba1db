import type { RateLimitState } from './rate-limit-state.ts';

/**
 * Every error a client can see has one of these codes: stable and machine-readable. The HTTP
 * status of each is the HTTP layer's to say (http/error-statuses.ts), as are the headers that
 * state an error's details (http/error-formatter.ts).
 */
export const ErrorCode = {
  invalidBody: 'INVALID_BODY',
  malformedJson: 'MALFORMED_JSON',
  invalidPetId: 'INVALID_PET_ID',
  invalidQuery: 'INVALID_QUERY',
  badRequest: 'BAD_REQUEST',
  unauthorized: 'UNAUTHORIZED',
  petNotFound: 'PET_NOT_FOUND',
  lowStockThresholdNotFound: 'LOW_STOCK_THRESHOLD_NOT_FOUND',
  routeNotFound: 'ROUTE_NOT_FOUND',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  quantityChanged: 'QUANTITY_CHANGED',
  preconditionFailed: 'PRECONDITION_FAILED',
  insufficientStock: 'INSUFFICIENT_STOCK',
  quantityOutOfRange: 'QUANTITY_OUT_OF_RANGE',
  tooManyHolds: 'TOO_MANY_HOLDS',
  reservationNotFound: 'RESERVATION_NOT_FOUND',
  reservationExpired: 'RESERVATION_EXPIRED',
  reservationReleased: 'RESERVATION_RELEASED',
  reservationCommitted: 'RESERVATION_COMMITTED',
  idempotencyKeyRequired: 'IDEMPOTENCY_KEY_REQUIRED',
  idempotencyKeyReused: 'IDEMPOTENCY_KEY_REUSED',
  rateLimited: 'RATE_LIMIT_EXCEEDED',
  quotaExceeded: 'QUOTA_EXCEEDED',
  keyBanned: 'API_KEY_TEMPORARILY_BANNED',
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
  /** A contended write's (ContendedWriteError), after what it was. */
  nothingWrittenRetry: 'Nothing was written: send it again after the time in Retry-After.',
  internal: 'An unexpected error occurred.',
} as const;

/** What an error says beyond its code and message, for a client deciding when to try again. */
export interface ErrorDetails {
  /** Seconds after which a retry may succeed. */
  retryAfterSeconds?: number;
  /** The window that counted (or refused) the request: its limit, what is left of it and when it resets. */
  rateLimit?: RateLimitState;
  /** The error repeats the recorded outcome of an earlier request with the same Idempotency-Key. */
  replayed?: boolean;
}

/** An error a client sees: its code, a message safe to show, and its details. */
export class ApiError extends Error {
  readonly retryAfterSeconds: number | undefined;
  readonly rateLimit: RateLimitState | undefined;
  readonly replayed: boolean;

  constructor(
    readonly code: ErrorCode,
    message: string,
    { retryAfterSeconds, rateLimit, replayed = false }: ErrorDetails = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.retryAfterSeconds = retryAfterSeconds;
    this.rateLimit = rateLimit;
    this.replayed = replayed;
  }
}

/**
 * A write that met other transactions on its items (a hot pet, a reservation settled twice at
 * once) round after round until its request's time or rounds ran out (contention.ts): it wrote
 * nothing, so the client may send it again as it is.
 */
export class ContendedWriteError extends Error {
  constructor(
    /** What was not written, for the client's message: `The adjustment`, `Reservation <id>`. */
    readonly what: string,
    options?: ErrorOptions,
  ) {
    super(`${what} met other writes of the same stock until the request's time ran out.`, options);
    this.name = 'ContendedWriteError';
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
