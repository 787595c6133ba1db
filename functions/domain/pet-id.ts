// Without zod, so that functions which only read a petId from the path load no schema library.

export const MAX_INT64 = 9_223_372_036_854_775_807n;

const CANONICAL_POSITIVE_INTEGER = /^[1-9][0-9]{0,18}$/;

/**
 * Parses a petId from its decimal text (a path segment or a JSON number's source text).
 * Only the canonical form is accepted ("7", not "007", "+7" or "7.0"), so one id has one
 * spelling in URLs, logs and storage. Returns undefined for anything that is not an int64 id.
 */
export function parsePetId(text: string | undefined): bigint | undefined {
  if (text === undefined || !CANONICAL_POSITIVE_INTEGER.test(text)) return undefined;
  const id = BigInt(text);
  return id <= MAX_INT64 ? id : undefined;
}
