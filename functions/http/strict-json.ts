/**
 * The one JSON reader of everything the service and its tools take: request bodies, inventory
 * import files and seed files. JSON.parse alone guesses where a text is ambiguous; this refuses:
 * - a key twice in one object (JSON.parse keeps the last, another parser the first), `__proto__`,
 *   and `prototype` in an object under `constructor`: the two ways a parsed text reaches a
 *   prototype once merged into an object, which Middy's JSON body parser refuses too (a 422 of its
 *   own, which this reader's refusal comes before);
 * - a number whose value is an integer but whose text is not an integer's digits (`1.0`, `1e0`,
 *   `-0`, and `1.0000000000000001`, which a double rounds to 1), or that no double holds
 *   (`1e400`, an integer beyond 2^53 outside the fields read as exact integers): every number
 *   this service takes is an integer, and what it stores must be what the client wrote;
 * - a string that is not Unicode text: an escape of half a surrogate pair (`"\ud800"`) with no
 *   other half, which no UTF-8 text can hold and which would be stored and echoed as it came;
 * - nesting deeper than MAX_JSON_DEPTH, which no document of this service needs.
 * Each problem names where it is (a path of keys and array indexes), so a caller can name the
 * field or the entry. A UTF-8 byte order mark before the text is skipped (RFC 8259 8.1 lets a
 * parser ignore it; editors on Windows write it).
 */

export const MAX_JSON_DEPTH = 64;
/** A text with more problems than this is not worth listing further. */
const MAX_PROBLEMS = 100;
const SHOWN_CHARACTERS = 40;

export type JsonPath = readonly (string | number)[];

export interface JsonProblem {
  kind: 'syntax' | 'too deep' | 'ambiguous' | 'inexact number' | 'not unicode';
  path: JsonPath;
  /** What is wrong, without the path: "occurs twice in one object". */
  message: string;
  /** Where a syntax problem is, for a file's reader to name without quoting the text (JSON.parse's message may quote it, line breaks and all). */
  location?: JsonSyntaxLocation;
}

/** The first character no JSON text could have there (undefined: the text ends too soon), by line and column from 1. */
export interface JsonSyntaxLocation {
  line: number;
  column: number;
  found: string | undefined;
}

export class StrictJsonError extends Error {
  constructor(readonly problems: readonly JsonProblem[]) {
    super(problems.map((problem) => `${describePath(problem.path)}: ${problem.message}`).join('; '));
    this.name = 'StrictJsonError';
  }
}

/** `quantity`, `items.0.id`; the whole text is `body`, as zod names paths. */
export function describePath(path: JsonPath): string {
  return path.length === 0 ? 'body' : path.join('.');
}

/** A value's text cut short: a 20 MB string or id is named, not printed. */
export function shortened(text: string): string {
  return text.length <= SHOWN_CHARACTERS ? text : `${text.slice(0, SHOWN_CHARACTERS)}… (${text.length} characters)`;
}

const PLAIN_INTEGER = /^-?(?:0|[1-9]\d*)$/;

function numberProblem(source: string, exact: boolean): string | undefined {
  if (source === '-0') return 'is written -0; write 0';
  const value = Number(source);
  if (PLAIN_INTEGER.test(source)) {
    return exact || Number.isSafeInteger(value) ? undefined : `${shortened(source)} is beyond 2^53: no number here is that large`;
  }
  if (!Number.isFinite(value)) return `${shortened(source)} is out of range`;
  if (Number.isInteger(value))
    return `${shortened(source)} is not written as an integer (digits only: no fraction, exponent or -0); it would be read as ${value}`;
  return undefined;
}

function isNumberCharacter(code: number): boolean {
  // 0-9 . + - e E
  return (code >= 48 && code <= 57) || code === 46 || code === 43 || code === 45 || code === 101 || code === 69;
}

/** An escape of a UTF-16 surrogate, or a raw one: only a string holding one can be ill-formed. */
const SURROGATE = /\\u[dD][89a-fA-F]|[\uD800-\uDFFF]/;

/** Whether a string's text (quotes included) decodes to Unicode text: every surrogate paired. */
function isUnicodeText(quoted: string): boolean {
  if (!SURROGATE.test(quoted)) return true;
  try {
    return (JSON.parse(quoted) as string).isWellFormed();
  } catch {
    // Not a JSON string at all: JSON.parse refuses the whole text, and says so.
    return true;
  }
}

interface Frame {
  /** The keys seen so far in an object; undefined in an array. */
  keys: Set<string> | undefined;
  /** The current key, or the current index. */
  at: string | number;
}

/**
 * One pass over the text, outside strings, with no recursion: nesting costs no stack. Meant to
 * be trusted only for text JSON.parse accepts; on other text its findings are ignored, but for depth.
 */
function scan(text: string, exactKeys: ReadonlySet<string>): StrictJsonCheck {
  const frames: Frame[] = [];
  const problems: JsonProblem[] = [];
  const exact: ExactInteger[] = [];
  const path = () => frames.map((frame) => frame.at);
  let expectingKey = false;
  for (let index = 0; index < text.length && problems.length < MAX_PROBLEMS; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 34 /* " */) {
      let end = index + 1;
      while (end < text.length && text.charCodeAt(end) !== 34) end += text.charCodeAt(end) === 92 /* \ */ ? 2 : 1;
      const frame = frames.at(-1);
      const keyNext = Boolean(frame?.keys && expectingKey);
      if (!isUnicodeText(text.slice(index, end + 1)))
        problems.push({
          kind: 'not unicode',
          path: keyNext ? path().slice(0, -1) : path(),
          message: `${keyNext ? 'has a key that ' : ''}is not Unicode text: it holds half of a UTF-16 surrogate pair (an escape from \\ud800 to \\udfff) without the other half`,
        });
      if (frame?.keys && keyNext) {
        let key: string;
        try {
          // Escapes are resolved, so "a" and "\u0061" are the same key.
          key = JSON.parse(text.slice(index, end + 1)) as string;
        } catch {
          key = text.slice(index + 1, end);
        }
        frame.at = key;
        if (key === '__proto__') problems.push({ kind: 'ambiguous', path: path(), message: 'the key "__proto__" is not accepted' });
        else if (key === 'prototype' && frames.at(-2)?.at === 'constructor')
          problems.push({ kind: 'ambiguous', path: path(), message: 'the key "prototype" under "constructor" is not accepted' });
        else if (frame.keys.has(key)) problems.push({ kind: 'ambiguous', path: path(), message: 'occurs more than once in one object' });
        frame.keys.add(key);
        expectingKey = false;
      }
      index = end;
    } else if (code === 123 /* { */ || code === 91 /* [ */) {
      if (frames.length >= MAX_JSON_DEPTH)
        return { problems: [{ kind: 'too deep', path: path(), message: `is nested more than ${MAX_JSON_DEPTH} levels deep` }], exact: [] };
      frames.push(code === 123 ? { keys: new Set(), at: '' } : { keys: undefined, at: 0 });
      expectingKey = code === 123;
    } else if (code === 125 /* } */ || code === 93 /* ] */) {
      frames.pop();
      expectingKey = false;
    } else if (code === 44 /* , */) {
      const frame = frames.at(-1);
      if (frame && !frame.keys) frame.at = (frame.at as number) + 1;
      expectingKey = frame?.keys !== undefined;
    } else if (code === 45 /* - */ || (code >= 48 && code <= 57)) {
      let end = index + 1;
      while (end < text.length && isNumberCharacter(text.charCodeAt(end))) end += 1;
      const at = frames.at(-1)?.at;
      const source = text.slice(index, end);
      const underExactKey = typeof at === 'string' && exactKeys.has(at);
      const problem = numberProblem(source, underExactKey);
      if (problem) problems.push({ kind: 'inexact number', path: path(), message: problem });
      else if (underExactKey && PLAIN_INTEGER.test(source)) exact.push({ path: path(), source });
      index = end - 1;
    }
  }
  return { problems, exact };
}

/** An integer under an exact key, by where it is and its text: every digit of it, which a double may not hold. */
export interface ExactInteger {
  path: JsonPath;
  source: string;
}

/** What a strict reading of a text found, short of parsing it: its problems, and the integers under the exact keys. */
export interface StrictJsonCheck {
  problems: JsonProblem[];
  exact: ExactInteger[];
}

/** The text without the UTF-8 byte order mark a reader may skip (RFC 8259 8.1). */
export const withoutByteOrderMark = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/**
 * Reads a JSON text strictly (see above) without parsing it: a pass over its characters, building
 * no values, so that one parse (the caller's: JSON.parse, or Middy's body parser) is the only one.
 * Its findings are meant only for a text that parse accepts, but for nesting too deep, which it
 * finds first. Integers under `exactKeys` are found with their source text (ExactInteger).
 */
export function checkStrictJson(text: string, { exactKeys = [] }: { exactKeys?: readonly string[] } = {}): StrictJsonCheck {
  return scan(withoutByteOrderMark(text), new Set(exactKeys));
}

/** Puts each exact integer at its place in the parsed value, as a bigint of its text. */
export function withExactIntegers(value: unknown, exact: readonly ExactInteger[]): unknown {
  for (const { path, source } of exact) {
    const holder = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);
    (holder as Record<string | number, unknown>)[path.at(-1)!] = BigInt(source);
  }
  return value;
}

/**
 * Parses a JSON text strictly (see above), or throws StrictJsonError naming every problem.
 * Integers under `exactKeys` (int64 ids) become bigints from their source text, every digit kept.
 */
export function parseStrictJson(text: string, { exactKeys = [] }: { exactKeys?: readonly string[] } = {}): unknown {
  const json = withoutByteOrderMark(text);
  const { problems, exact } = checkStrictJson(json, { exactKeys });
  if (problems[0]?.kind === 'too deep') throw new StrictJsonError(problems);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw syntaxError(json, error);
  }
  if (problems.length > 0) throw new StrictJsonError(problems);
  return withExactIntegers(value, exact);
}

/** A text JSON.parse refused, as the strict reader's problem: JSON.parse's words, and where the text goes wrong. */
export function syntaxError(text: string, error: unknown): StrictJsonError {
  return new StrictJsonError([
    {
      kind: 'syntax',
      path: [],
      message: `is not valid JSON: ${(error as Error).message}`,
      location: syntaxLocation(withoutByteOrderMark(text)),
    },
  ]);
}

/**
 * Where a text JSON.parse refused first goes wrong (RFC 8259), found by a second reading that
 * builds no values: JSON.parse's messages give a position for some mistakes only. Run on a
 * refused text only, and after scan has refused nesting deeper than MAX_JSON_DEPTH.
 */
function syntaxLocation(text: string): JsonSyntaxLocation {
  let at = 0;
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at += 1;
  };
  const literal = (word: string) => {
    for (const char of word) {
      if (text[at] !== char) return false;
      at += 1;
    }
    return true;
  };
  const string = (): boolean => {
    at += 1;
    for (;;) {
      const char = text[at];
      if (char === undefined || char < ' ') return false;
      at += 1;
      if (char === '"') return true;
      if (char !== '\\') continue;
      if (text[at] === 'u') {
        at += 1;
        for (let digit = 0; digit < 4; digit += 1, at += 1) if (!/[0-9a-fA-F]/.test(text[at] ?? '')) return false;
      } else if ('"\\/bfnrt'.includes(text[at] ?? '-')) at += 1;
      else return false;
    }
  };
  const number = () => {
    const match = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    match.lastIndex = at;
    const found = match.exec(text)?.[0];
    at += found?.length ?? 0;
    return found !== undefined;
  };
  /** The members of an array or object, after its opening bracket: each read by `member`, a comma between, up to `close`. */
  const members = (close: string, member: () => boolean): boolean => {
    at += 1;
    space();
    if (text[at] === close) {
      at += 1;
      return true;
    }
    for (;;) {
      if (!member()) return false;
      space();
      if (text[at] !== ',' && text[at] !== close) return false;
      at += 1;
      if (text[at - 1] === close) return true;
      space();
    }
  };
  const value = (): boolean => {
    space();
    switch (text[at]) {
      case '{':
        return members('}', () => {
          space();
          if (text[at] !== '"' || !string()) return false;
          space();
          if (text[at] !== ':') return false;
          at += 1;
          return value();
        });
      case '[':
        return members(']', value);
      case '"':
        return string();
      case 't':
        return literal('true');
      case 'f':
        return literal('false');
      case 'n':
        return literal('null');
      default:
        return number();
    }
  };
  if (value()) space();
  const before = text.slice(0, at);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: at - lineStart + 1, found: text[at] };
}
