import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findDuplicateKey } from '../../functions/http/duplicate-json-keys.ts';

describe('findDuplicateKey', () => {
  it.each([
    ['{"quantity": 1, "quantity": 2}', 'quantity'],
    ['{"a": {"b": 1, "b": 2}}', 'b'],
    ['[{"a": 1}, {"a": 2, "a": 3}]', 'a'],
    ['{"a": 1, "\\u0061": 2}', 'a'],
    ['{"a": {"x": 1}, "a": 2}', 'a'],
  ])('finds the repeated key of %s', (text, key) => {
    expect(findDuplicateKey(text)).toBe(key);
  });

  it.each([
    '{"quantity": 1}',
    '{"a": {"a": 1}}',
    '[{"a": 1}, {"a": 2}]',
    '{"a": "a", "b": "\\"a\\": 1, \\"a\\""}',
    '{"a": ["a", "a"]}',
    '"a"',
    '12',
  ])('finds none in %s', (text) => {
    expect(findDuplicateKey(text)).toBeUndefined();
  });

  it('finds none in any JSON text JSON.stringify writes, and the key added twice to any object', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), (value, object) => {
        expect(findDuplicateKey(JSON.stringify(value))).toBeUndefined();
        const text = JSON.stringify(object);
        const [key] = Object.keys(object);
        const repeated = `${text.slice(0, -1)},${JSON.stringify(key)}:null}`;
        expect(findDuplicateKey(JSON.stringify({ wrapped: [JSON.parse(text)] }))).toBeUndefined();
        expect(findDuplicateKey(`{"wrapped": [${repeated}]}`)).toBe(key);
      }),
    );
  });

  it('takes nesting far deeper than the call stack would', () => {
    expect(findDuplicateKey(`${'['.repeat(100_000)}{"a": 1, "a": 2}${']'.repeat(100_000)}`)).toBe('a');
  });
});
