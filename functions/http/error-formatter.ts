import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { ApiError, ERROR_MESSAGES, InternalError, ServiceUnavailableError, StoreUnavailableError } from '../domain/errors.ts';
import { describeError, logger, SERVICE_METRICS } from '../logger.ts';
import { jsonResponse } from './json.ts';

/** Seconds a client should wait after a 503: the store's throttling usually clears within one. */
const STORE_RETRY_AFTER_SECONDS = 1;

/** Methods that change data: their 503 says the change may have been made all the same. */
const WRITE_METHODS = new Set(['PATCH', 'POST', 'PUT', 'DELETE']);

/**
 * Maps anything thrown to the ApiError the client sees; unexpected errors keep their detail in the
 * log only. A write's 503 tells the client it may have been applied, and how to retry it safely.
 */
export function toApiError(error: unknown, method = 'GET'): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StoreUnavailableError) {
    logger.warn('store unavailable', describeError(error));
    logger.metric(SERVICE_METRICS.storeUnavailable, 1);
    const write = WRITE_METHODS.has(method.toUpperCase());
    return new ServiceUnavailableError(STORE_RETRY_AFTER_SECONDS, write ? ERROR_MESSAGES.serviceUnavailableWrite : undefined);
  }
  logger.error('unexpected error', describeError(error));
  return new InternalError();
}

export function errorResponse(error: ApiError): APIGatewayProxyResult {
  return jsonResponse(error.status, error.toJSON(), { ...error.headers });
}

/**
 * The one place an error becomes a response: JSON Error body, status from the error,
 * headers the error carries. Registered last so that its onError runs first and the
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
