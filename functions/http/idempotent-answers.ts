import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ApiError } from '../domain/errors.ts';
import type { KeyedWriteResult, RecordedOutcome } from '../domain/idempotent-writes.ts';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyOf } from './idempotency-key.ts';
import { jsonResponse } from './json.ts';

/** Marks an answer that repeats an earlier request's outcome instead of applying anything. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** The header that marks an answer, its entry or its refusal, as an earlier request's outcome. */
export function replayedHeaders(replayed: boolean): Record<string, string> {
  return replayed ? { [REPLAYED_HEADER]: 'true' } : {};
}

/** The request's Idempotency-Key, in either form: 400 when it is missing or malformed, before anything is read or written. */
export function idempotencyKeyFrom(event: Pick<APIGatewayProxyEvent, 'headers'>): string {
  return idempotencyKeyOf(event.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]);
}

/** The request's Idempotency-Key where it is optional (PATCH): undefined without the header, 400 when it is malformed. */
export function optionalIdempotencyKeyFrom(event: Pick<APIGatewayProxyEvent, 'headers'>): string | undefined {
  const field = event.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  return field === undefined ? undefined : idempotencyKeyOf(field);
}

/**
 * The answer of a request made under an Idempotency-Key: `status` (200 unless it creates
 * something) with `body` of its outcome (and the `appliedHeaders` it names, such as an entry's
 * ETag or a Location), or its recorded error; either marked Idempotent-Replayed when an earlier
 * request's outcome is repeated.
 */
export function idempotentAnswer<Outcome extends RecordedOutcome>(
  { outcome, replayed }: KeyedWriteResult<Outcome>,
  body: (applied: Exclude<Outcome, { error: unknown }>) => unknown,
  appliedHeaders: (applied: Exclude<Outcome, { error: unknown }>) => Record<string, string> = () => ({}),
  status = 200,
): APIGatewayProxyResult {
  if (!('error' in outcome)) {
    const applied = outcome as Exclude<Outcome, { error: unknown }>;
    return jsonResponse(status, body(applied), { ...replayedHeaders(replayed), ...appliedHeaders(applied) });
  }
  const { code, message } = outcome.error;
  throw new ApiError(code, message, { replayed });
}
