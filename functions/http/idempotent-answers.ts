import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ApiError, BadRequestError, ErrorCode } from '../domain/errors.ts';
import { IDEMPOTENCY_KEY_PATTERN, type AdjustmentResult, type RecordedOutcome } from '../domain/inventory-adjustments.ts';
import { jsonResponse } from './json.ts';

/** Marks an answer that repeats an earlier request's outcome instead of applying anything. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** The request's Idempotency-Key: 400 when it is missing or malformed, before anything is read or written. */
export function idempotencyKeyFrom(event: Pick<APIGatewayProxyEvent, 'headers'>): string {
  const idempotencyKey = event.headers['idempotency-key'];
  if (idempotencyKey === undefined || !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
    throw new BadRequestError(
      ErrorCode.idempotencyKeyRequired,
      'An Idempotency-Key header of 1 to 255 visible ASCII characters is required (a new UUID per adjustment, reused on every retry of it).',
    );
  }
  return idempotencyKey;
}

/**
 * The answer of a request made under an Idempotency-Key: 200 with `body` of its outcome, or its
 * recorded error; either marked Idempotent-Replayed when an earlier request's outcome is repeated.
 */
export function idempotentAnswer<Outcome extends RecordedOutcome>(
  { outcome, replayed }: AdjustmentResult<Outcome>,
  body: (applied: Exclude<Outcome, { error: unknown }>) => unknown,
): APIGatewayProxyResult {
  const headers: Record<string, string> = replayed ? { [REPLAYED_HEADER]: 'true' } : {};
  if (!('error' in outcome)) return jsonResponse(200, body(outcome as Exclude<Outcome, { error: unknown }>), headers);
  const { status, code, message } = outcome.error;
  throw new ApiError(status, code as ErrorCode, message, headers);
}
