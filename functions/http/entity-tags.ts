import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ApiError, ErrorCode } from '../domain/errors.ts';

/** An entry's strong ETag: its version, quoted. */
export function entityTagHeader(version: number): Record<string, string> {
  return { ETag: `"${version}"` };
}

/** No entry ever has this version: a weak tag, which never matches an If-Match (strong comparison, RFC 9110 13.1.1), asks for it. */
const NO_VERSION = -1;

/**
 * The most entity tags one If-Match may name. A client names the version it read, or a few; the
 * store compares the entry's version with the list in one condition (DynamoDB's IN, which takes
 * at most 100 operands), so a longer list is refused before any store call.
 */
export const MAX_IF_MATCH_TAGS = 100;

/**
 * The versions an If-Match accepts: undefined without the header or with `*` (any existing entry,
 * which the write requires anyway). A weak tag matches no version; anything else that is not a
 * quoted version, or more than MAX_IF_MATCH_TAGS tags, is a 400. The header's lines come joined
 * into one (repeated-headers.ts).
 */
export function ifMatchVersions(event: Pick<APIGatewayProxyEvent, 'headers'>): number[] | undefined {
  const header = event.headers?.['if-match'];
  if (header === undefined || header.trim() === '*') return undefined;
  const tags = header.split(',');
  if (tags.length > MAX_IF_MATCH_TAGS)
    throw new ApiError(ErrorCode.badRequest, `If-Match names ${tags.length} entity tags; send at most ${MAX_IF_MATCH_TAGS}.`);
  return tags.map((tag) => {
    const trimmed = tag.trim();
    const strong = /^"(0|[1-9]\d{0,14})"$/.exec(trimmed);
    if (strong) return Number(strong[1]);
    if (/^W\/"[^"]*"$/.test(trimmed)) return NO_VERSION;
    throw new ApiError(
      ErrorCode.badRequest,
      `If-Match: expected the ETag of the entry (a quoted version such as "7"), a list of them, or *; not ${JSON.stringify(header)}.`,
    );
  });
}
