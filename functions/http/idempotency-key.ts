import { ApiError, ErrorCode } from '../domain/errors.ts';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * The Idempotency-Key field in either form, each holding 1 to 255 visible ASCII characters:
 * bare (`abc`, not starting with a quote), as clients have sent it all along; or a
 * structured-field String (`"abc"`, RFC 9651 section 3.3.3, `"` and `\` escaped), as
 * draft-ietf-httpapi-idempotency-key-header-07 writes it. No parameters, no space: neither
 * is part of a key.
 */
export const IDEMPOTENCY_KEY_FIELD_PATTERN = /^(?:[\x21\x23-\x7e][\x21-\x7e]{0,254}|"(?:[\x21\x23-\x5b\x5d-\x7e]|\\["\\]){1,255}")$/;

export const IDEMPOTENCY_KEY_REQUIRED_MESSAGE =
  'An Idempotency-Key header of 1 to 255 visible ASCII characters, bare or as a quoted structured-field string, is required (a new UUID per adjustment, reused on every retry of it).';

/**
 * The key an Idempotency-Key value names: `"abc"` and `abc` are one key, so a client that
 * retries in the other form replays instead of applying twice. Every route that takes the
 * header reads it here. Anything else is 400 IDEMPOTENCY_KEY_REQUIRED.
 */
export function idempotencyKeyOf(value: string | undefined): string {
  // Whitespace around a field value is not part of it (RFC 9110 section 5.5); servers strip it, a direct caller may not.
  const field = value?.replace(/^[ \t]+|[ \t]+$/g, '');
  if (field === undefined || !IDEMPOTENCY_KEY_FIELD_PATTERN.test(field)) {
    throw new ApiError(ErrorCode.idempotencyKeyRequired, IDEMPOTENCY_KEY_REQUIRED_MESSAGE);
  }
  return field.startsWith('"') ? field.slice(1, -1).replaceAll(/\\(["\\])/g, '$1') : field;
}
