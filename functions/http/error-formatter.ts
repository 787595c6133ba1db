import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { ApiError, ContendedWriteError, ERROR_MESSAGES, ErrorCode, StoreUnavailableError } from '../domain/errors.ts';
import { rateLimitHeaders } from './rate-limit-headers.ts';
import { describeError, logger, SERVICE_METRICS } from '../logger.ts';
import { ERROR_STATUSES, errorBody, RETRY_AFTER_HEADER } from './error-statuses.ts';
import { replayedHeaders } from './idempotent-answers.ts';
import { jsonResponse } from './json.ts';

/** Seconds a client should wait after a 503: the store's throttling usually clears within one. */
const STORE_RETRY_AFTER_SECONDS = 1;

/** Methods that change data: their 503 says the change may have been made all the same. */
const WRITE_METHODS = new Set(['PATCH', 'POST', 'PUT', 'DELETE']);

/**
 * The contract's code for a client error a Middy middleware throws (@middy/util's createError):
 * the JSON body parser's 415 and 422 (a body it cannot parse, or a key it forbids), the
 * validator's 400. The service's own checks refuse these requests first; this keeps one that
 * slips past them (a newer Middy, a middleware added later) a client error. Any other 4xx is a
 * 400 BAD_REQUEST, since the contract has no code of its status.
 */
const MIDDLEWARE_ERROR_CODES: Readonly<Record<number, ErrorCode>> = {
  400: ErrorCode.invalidBody,
  413: ErrorCode.payloadTooLarge,
  415: ErrorCode.unsupportedMediaType,
  422: ErrorCode.malformedJson,
};

/** Middy's HttpError: its status, and `expose` set when its message is meant for the client (a 4xx). */
interface MiddlewareHttpError extends Error {
  statusCode: number;
  expose: true;
}

function isMiddlewareClientError(error: unknown): error is MiddlewareHttpError {
  const { statusCode, expose } = (error ?? {}) as { statusCode?: unknown; expose?: unknown };
  return error instanceof Error && expose === true && typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500;
}

/**
 * Maps anything thrown to the ApiError the client sees; unexpected errors keep their detail in the
 * log only. A write's 503 tells the client it may have been applied, and how to retry it safely.
 */
export function toApiError(error: unknown, method = 'GET'): ApiError {
  if (error instanceof ApiError) return error;
  if (isMiddlewareClientError(error)) {
    logger.warn('request refused by a middleware', describeError(error));
    return new ApiError(MIDDLEWARE_ERROR_CODES[error.statusCode] ?? ErrorCode.badRequest, error.message);
  }
  if (error instanceof StoreUnavailableError) {
    logger.warn('store unavailable', describeError(error));
    logger.metric(SERVICE_METRICS.storeUnavailable, 1);
    const write = WRITE_METHODS.has(method.toUpperCase());
    return new ApiError(ErrorCode.serviceUnavailable, write ? ERROR_MESSAGES.serviceUnavailableWrite : ERROR_MESSAGES.serviceUnavailable, {
      retryAfterSeconds: STORE_RETRY_AFTER_SECONDS,
    });
  }
  if (error instanceof ContendedWriteError) {
    logger.warn('write contended', describeError(error));
    logger.metric(SERVICE_METRICS.writeContended, 1);
    return new ApiError(ErrorCode.serviceUnavailable, `${error.message} ${ERROR_MESSAGES.nothingWrittenRetry}`, {
      retryAfterSeconds: STORE_RETRY_AFTER_SECONDS,
    });
  }
  logger.error('unexpected error', describeError(error));
  return new ApiError(ErrorCode.internal, ERROR_MESSAGES.internal);
}

/** The headers that state an error's details: its window's rate-limit headers, Retry-After, Idempotent-Replayed. */
export function errorHeaders({ rateLimit, retryAfterSeconds, replayed }: ApiError): Record<string, string> {
  return {
    ...(rateLimit === undefined ? {} : rateLimitHeaders(rateLimit)),
    ...(retryAfterSeconds === undefined ? {} : { [RETRY_AFTER_HEADER]: String(retryAfterSeconds) }),
    ...replayedHeaders(replayed),
  };
}

export function errorResponse(error: ApiError): APIGatewayProxyResult {
  const status = ERROR_STATUSES[error.code];
  return jsonResponse(status, errorBody(status, error.code, error.message), errorHeaders(error));
}

/**
 * The one place an error becomes a response: JSON Error body, status from the error's code,
 * headers from its details. Registered last so that its onError runs first and the
 * middlewares before it (plan limits) can add their headers to the response it built.
 */
export function errorFormatter(): MiddlewareObj {
  return {
    onError: (request) => {
      const { httpMethod } = (request.event ?? {}) as { httpMethod?: string };
      request.response = errorResponse(toApiError(request.error, httpMethod));
    },
  };
}
