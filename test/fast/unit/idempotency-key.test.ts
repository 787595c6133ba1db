import fc from 'fast-check';
import { parseItem, serializeItem } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../functions/domain/errors.ts';
import { ERROR_STATUSES } from '../../../functions/http/error-statuses.ts';
import { idempotencyKeyOf } from '../../../functions/http/idempotency-key.ts';
import { propertyRuns } from '../../support/property-runs.ts';

/** What the service reads from a value, or the code it refuses it with. */
function readKey(value: string | undefined): string | { refused: string } {
  try {
    return idempotencyKeyOf(value);
  } catch (error) {
    if (error instanceof ApiError) return { refused: `${ERROR_STATUSES[error.code]} ${error.code}` };
    throw error;
  }
}

const REFUSED = { refused: '400 IDEMPOTENCY_KEY_REQUIRED' };
const visibleAscii = fc.string({
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
  minLength: 1,
  maxLength: 255,
});
const printableAscii = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 300 });

/** What a structured-field parser makes of a value: the String an Item of that field holds, without parameters, or nothing. */
function structuredStringOf(value: string): string | undefined {
  try {
    const [bare, parameters] = parseItem(value);
    return typeof bare === 'string' && parameters.size === 0 ? bare : undefined;
  } catch {
    return undefined;
  }
}

describe('Idempotency-Key', () => {
  it.each([
    ['8e03978e-40d5-43e8-bc93-6894a57f9324', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
    ['"8e03978e-40d5-43e8-bc93-6894a57f9324"', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
    ['"a\\"b\\\\c"', 'a"b\\c'],
    ['a"b\\c', 'a"b\\c'],
    [`"${'k'.repeat(255)}"`, 'k'.repeat(255)],
  ])('reads %s as the key %s', (value, key) => {
    expect(readKey(value)).toBe(key);
  });

  it.each([
    undefined,
    '',
    '""',
    '"unterminated',
    '"a"b"',
    '"has space"',
    'has space',
    '"key";p=1',
    '"back\\slash"',
    'k'.repeat(256),
    `"${'k'.repeat(256)}"`,
    'ключ',
  ])('refuses %s with 400 IDEMPOTENCY_KEY_REQUIRED', (value) => {
    expect(readKey(value)).toEqual(REFUSED);
  });

  it('reads every key written as a structured-field string (serialized by the parser library) as the bare key', () => {
    fc.assert(
      fc.property(visibleAscii, (key) => {
        expect(readKey(serializeItem(key))).toBe(key);
        if (!key.startsWith('"')) expect(readKey(key)).toBe(key);
      }),
      propertyRuns(),
    );
  });

  it('reads a quoted value exactly as a structured-field parser does, and refuses what it refuses or what is no key', () => {
    const quoted = fc.oneof(
      printableAscii.map((text) => `"${text}"`),
      printableAscii.map((text) => `"${text}`),
      fc.tuple(visibleAscii, printableAscii).map(([key, rest]) => `"${key}"${rest}`),
    );
    fc.assert(
      fc.property(quoted, (value) => {
        const parsed = structuredStringOf(value);
        const isKey = parsed !== undefined && /^[\x21-\x7e]{1,255}$/.test(parsed);
        expect(readKey(value)).toEqual(isKey ? parsed : REFUSED);
      }),
      propertyRuns({ numRuns: 2_000 }),
    );
  });
});
