import { ApiError, ErrorCode } from './errors.ts';

/**
 * An opaque cursor over numbered entries (a pet's versions, the feed's sequence): the base64url of
 * a prefix and the number of the last record handed out. Opaque to clients, so the numbering may
 * change; read back only exactly as it was written, so a cursor of another listing (another
 * prefix: the feed's, another pet's), an edited one or a non-canonical spelling is a 400, never a
 * page from somewhere else. A well-formed number beyond what the listing has reached is its
 * listing's to refuse (cursorNotHandedOut), once it has read how far it stands.
 */
export interface PageCursors {
  /** The cursor after the entry numbered `last`. */
  after(last: number): string;
  /** The number a cursor names; 400 INVALID_QUERY for anything this listing did not hand out. */
  read(cursor: string): number;
}

/** The longest cursor: a prefix naming a pet (up to 19 digits) and a number up to 2^53 - 1, in base64url. */
const MAX_CURSOR_LENGTH = 64;

/** The refusal of a cursor the operation did not hand out: 400 INVALID_QUERY. */
export function cursorNotHandedOut(): ApiError {
  return new ApiError(ErrorCode.invalidQuery, 'cursor: not a cursor this operation returned.');
}

export function pageCursors(prefix: string, { lowest }: { lowest: 0 | 1 }): PageCursors {
  const digits = lowest === 0 ? /^(?:0|[1-9]\d{0,15})$/ : /^[1-9]\d{0,15}$/;
  const after = (last: number) => Buffer.from(`${prefix}${last}`).toString('base64url');
  return {
    after,
    read(cursor) {
      const text = cursor.length <= MAX_CURSOR_LENGTH && /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
      const number = text.startsWith(prefix) && digits.test(text.slice(prefix.length)) ? Number(text.slice(prefix.length)) : Number.NaN;
      if (!Number.isSafeInteger(number) || after(number) !== cursor) throw cursorNotHandedOut();
      return number;
    },
  };
}
