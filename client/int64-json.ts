import { readJsonArray } from './json-array-reader.ts';

/**
 * JSON.parse turns every number into a double, which rounds ids above 2^53
 * (9007199254740993 becomes …992). The fields the contract declares int64 are read from their
 * source text instead and returned as bigint; the contract tests check that this list matches
 * the int64 properties of openapi.json.
 */
export const INT64_FIELDS: ReadonlySet<string> = new Set(['petId', 'id']);

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

const INTEGER_TEXT = /^-?\d+$/;

const reviveInt64: Reviver = (key, value, context) =>
  typeof value === 'number' && INT64_FIELDS.has(key) && context?.source !== undefined && INTEGER_TEXT.test(context.source)
    ? BigInt(context.source)
    : value;

const LITERALS = [
  ['true', true],
  ['false', false],
  ['null', null],
] as const;

/** Whether this runtime's JSON.parse hands revivers the source text (Node 21+, every current browser). */
export const NATIVE_SOURCE_TEXT: boolean = (() => {
  let source: string | undefined;
  JSON.parse('1', ((_key, value, context) => {
    source = context?.source;
    return value;
  }) as Reviver as Parameters<typeof JSON.parse>[1]);
  return source === '1';
})();

/**
 * A JSON parser (RFC 8259) for runtimes whose JSON.parse gives revivers no source text (Node
 * 20): the same values as JSON.parse, except that numbers under an INT64_FIELDS key are bigint.
 */
export function parseJsonWithInt64Fallback(text: string): unknown {
  let at = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at position ${at} in JSON`);
  };
  const skipSpace = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at += 1;
  };
  const expect = (literal: string) => {
    if (text.startsWith(literal, at)) at += literal.length;
    else fail(`Expected ${literal}`);
  };
  const string = (): string => {
    const start = at;
    expect('"');
    for (;;) {
      const char = text[at];
      if (char === undefined || char < ' ') fail('Unterminated string');
      at += char === '\\' ? 2 : 1;
      if (char === '"') break;
    }
    // The string's own text, escapes included, is valid JSON: JSON.parse decodes it exactly.
    return JSON.parse(text.slice(start, at)) as string;
  };
  const numberText = (): string => {
    const match = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    match.lastIndex = at;
    const found = match.exec(text)?.[0] ?? fail('Unexpected token');
    at += found.length;
    return found;
  };
  const value = (key: string): unknown => {
    skipSpace();
    const char = text[at];
    if (char === '{') {
      at += 1;
      const object: Record<string, unknown> = {};
      skipSpace();
      if (text[at] === '}') {
        at += 1;
        return object;
      }
      for (;;) {
        skipSpace();
        const name = string();
        skipSpace();
        expect(':');
        // As JSON.parse: an own data property, even for "__proto__".
        Object.defineProperty(object, name, { value: value(name), enumerable: true, writable: true, configurable: true });
        skipSpace();
        if (text[at] === ',') at += 1;
        else {
          expect('}');
          return object;
        }
      }
    }
    if (char === '[') {
      at += 1;
      const array: unknown[] = [];
      skipSpace();
      if (text[at] === ']') {
        at += 1;
        return array;
      }
      for (;;) {
        array.push(value(String(array.length)));
        skipSpace();
        if (text[at] === ',') at += 1;
        else {
          expect(']');
          return array;
        }
      }
    }
    if (char === '"') return string();
    for (const [literal, meaning] of LITERALS) {
      if (text.startsWith(literal, at)) {
        at += literal.length;
        return meaning;
      }
    }
    const number = numberText();
    return INT64_FIELDS.has(key) && INTEGER_TEXT.test(number) ? BigInt(number) : Number(number);
  };
  const result = value('');
  skipSpace();
  if (at < text.length) fail('Unexpected non-whitespace character after JSON');
  return result;
}

export function parseJsonWithInt64(text: string): unknown {
  return NATIVE_SOURCE_TEXT ? JSON.parse(text, reviveInt64 as Parameters<typeof JSON.parse>[1]) : parseJsonWithInt64Fallback(text);
}

/** A JSON array read from a stream, element by element (see readJsonArray), int64 fields as bigint. */
export function readJsonArrayWithInt64(body: ReadableStream<Uint8Array>): Promise<unknown[]> {
  return readJsonArray(body, parseJsonWithInt64);
}

/** A bigint as JSON.stringify's replacer marks it where JSON.rawJSON is missing (Node 20): a string no JSON text of ours holds. */
const INT64_MARK = /"\\u0000int64:(-?\d+)"/g;

/** JSON text in which bigints (int64 ids) are written as exact integer literals, on every Node from 20. */
export function stringifyJsonWithInt64(value: unknown): string {
  const raw = (JSON as { rawJSON?: (text: string) => unknown }).rawJSON;
  if (raw) return JSON.stringify(value, (_key, field: unknown) => (typeof field === 'bigint' ? raw(field.toString()) : field));
  return JSON.stringify(value, (_key, field: unknown) => (typeof field === 'bigint' ? `\u0000int64:${field}` : field)).replace(
    INT64_MARK,
    '$1',
  );
}
