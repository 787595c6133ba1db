import { readJsonArray } from './json-array-reader.ts';

/**
 * JSON.parse turns every number into a double, which rounds ids above 2^53
 * (9007199254740993 becomes …992). The fields the contract declares int64 are read from their
 * source text instead and returned as bigint; the contract tests check that this list matches
 * the int64 properties of openapi.json.
 */
export const INT64_FIELDS: ReadonlySet<string> = new Set(['petId', 'id']);

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

const reviveInt64: Reviver = (key, value, context) => {
  if (typeof value !== 'number' || !INT64_FIELDS.has(key)) return value;
  // Node 21+ hands revivers the number's source text (JSON.parse source text access).
  if (context?.source !== undefined) return BigInt(context.source);
  if (Number.isSafeInteger(value)) return BigInt(value);
  throw new RangeError(`${key} ${value} lost precision: this runtime's JSON.parse does not give revivers the source text.`);
};

export function parseJsonWithInt64(text: string): unknown {
  return JSON.parse(text, reviveInt64 as Parameters<typeof JSON.parse>[1]);
}

/** A JSON array read from a stream, element by element (see readJsonArray), int64 fields as bigint. */
export function readJsonArrayWithInt64(body: ReadableStream<Uint8Array>): Promise<unknown[]> {
  return readJsonArray(body, parseJsonWithInt64);
}
