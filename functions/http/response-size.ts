import type { APIGatewayProxyResult } from 'aws-lambda';
import { ApiError, ErrorCode } from '../domain/errors.ts';

/**
 * Lambda refuses a synchronous response over 6 MiB, counted on the serialized proxy result, in
 * which the body is a JSON string (every quote in it escaped). Beyond that API Gateway would
 * answer a bare 502; we answer 422 ourselves, a little before the edge.
 */
export const LAMBDA_RESPONSE_LIMIT_BYTES = 6 * 1024 * 1024;
const HEADROOM_BYTES = 64 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Bytes of JSON.stringify(result), without stringifying a body of megabytes a second time. The
 * body is JSON text already, so it holds no raw control characters: in the serialized result it
 * grows by one byte per quote and per backslash, which JSON.stringify escapes.
 */
export function proxyResultBytes(result: APIGatewayProxyResult): number {
  const { body } = result;
  let escapes = 0;
  for (let index = 0; index < body.length; index += 1) {
    const code = body.charCodeAt(index);
    if (code === QUOTE || code === BACKSLASH) escapes += 1;
  }
  return Buffer.byteLength(JSON.stringify({ ...result, body: '' }), 'utf8') + Buffer.byteLength(body, 'utf8') + escapes;
}

export class ResponseTooLargeError extends ApiError {
  constructor(entries: number) {
    super(
      422,
      ErrorCode.inventoryTooLarge,
      `The inventory has ${entries} entries, more than one response can carry (Lambda's 6 MiB limit); it is not truncated. Contact the API team.`,
    );
  }
}

/** Returns the result when Lambda can deliver it whole; otherwise throws instead of truncating. */
export function deliverable(result: APIGatewayProxyResult, entries: number): APIGatewayProxyResult {
  if (proxyResultBytes(result) > LAMBDA_RESPONSE_LIMIT_BYTES - HEADROOM_BYTES) throw new ResponseTooLargeError(entries);
  return result;
}
