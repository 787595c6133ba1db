import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseStrictJson, StrictJsonError } from '../../../functions/http/strict-json.ts';
import { propertyRuns } from '../../support/property-runs.ts';

const problemsOf = (text: string, exactKeys: string[] = []) => {
  try {
    parseStrictJson(text, { exactKeys });
    return [];
  } catch (error) {
    if (!(error instanceof StrictJsonError)) throw error;
    return error.problems.map(({ kind, path, message }) => [kind, path.join('.'), message]);
  }
};

describe('parseStrictJson', () => {
  it.each([
    ['{"quantity": 1, "quantity": 2}', 'quantity'],
    ['{"a": {"b": 1, "b": 2}}', 'a.b'],
    ['[{"a": 1}, {"a": 2, "a": 3}]', '1.a'],
    ['{"a": 1, "\\u0061": 2}', 'a'],
    ['{"a": {"x": 1}, "a": 2}', 'a'],
  ])('refuses the repeated key of %s, naming where it is', (text, path) => {
    expect(problemsOf(text)).toEqual([['ambiguous', path, 'occurs more than once in one object']]);
  });

  it.each([
    '{"quantity": 1}',
    '{"a": {"a": 1}}',
    '[{"a": 1}, {"a": 2}]',
    '{"a": "a", "b": "\\"a\\": 1, \\"a\\""}',
    '{"a": ["a", "a"]}',
    '"a"',
    '12',
    '{"delta": -3, "x": 0, "y": 1.5, "z": -2.25e-3}',
  ])('accepts %s', (text) => {
    expect(parseStrictJson(text)).toEqual(JSON.parse(text));
  });

  const notAnInteger = (read: number) =>
    `is not written as an integer (digits only: no fraction, exponent or -0); it would be read as ${read}`;
  it.each([
    ['1.0000000000000001', `1.0000000000000001 ${notAnInteger(1)}`],
    ['1.0', `1.0 ${notAnInteger(1)}`],
    ['1e0', `1e0 ${notAnInteger(1)}`],
    ['-0', 'is written -0; write 0'],
    ['-0.0', `-0.0 ${notAnInteger(0)}`],
    ['1e400', '1e400 is out of range'],
    ['9007199254740993', '9007199254740993 is beyond 2^53: no number here is that large'],
  ])('refuses the number %s where every number is an integer, naming entry and field', (number, message) => {
    expect(problemsOf(`[{"petId": 1, "quantity": 0}, {"petId": 2, "quantity": ${number}}]`)).toEqual([
      ['inexact number', '1.quantity', message],
    ]);
  });

  const halfAPair =
    'is not Unicode text: it holds half of a UTF-16 surrogate pair (an escape from \\ud800 to \\udfff) without the other half';
  it.each([
    ['{"reference": "\\ud800"}', 'reference', halfAPair],
    ['{"reference": "cart \\udc00 42"}', 'reference', halfAPair],
    ['{"reference": "\\ud83d\\ud83d\\ude00"}', 'reference', halfAPair],
    ['{"items": [{"\\udfff": 1}]}', 'items.0', `has a key that ${halfAPair}`],
  ])('refuses the string of %s that is not Unicode text, naming where it is', (text, path, message) => {
    expect(problemsOf(text)).toEqual([['not unicode', path, message]]);
  });

  it.each(['{"reference": "\\ud83d\\ude00"}', '{"reference": "\u{1F600} and \\u00e9"}'])(
    'accepts %s: a surrogate pair, escaped or not, is one character',
    (text) => {
      expect(parseStrictJson(text)).toEqual(JSON.parse(text));
    },
  );

  it('reads integers under the exact keys as bigints, every digit kept, and refuses them written otherwise', () => {
    expect(parseStrictJson('[{"petId": 9223372036854775807}]', { exactKeys: ['petId'] })).toEqual([{ petId: 9_223_372_036_854_775_807n }]);
    expect(problemsOf('[{"petId": 1e3}]', ['petId'])).toEqual([
      [
        'inexact number',
        '0.petId',
        '1e3 is not written as an integer (digits only: no fraction, exponent or -0); it would be read as 1000',
      ],
    ]);
  });

  it.each([
    ['{"constructor": {"prototype": {}}}', 'constructor.prototype'],
    ['{"quantity": 1, "note": [{"constructor": {"a": 1, "prototype": null}}]}', 'note.0.constructor.prototype'],
  ])('refuses %s, which pollutes a prototype when merged into an object, as Middy does', (text, path) => {
    expect(problemsOf(text)).toEqual([['ambiguous', path, 'the key "prototype" under "constructor" is not accepted']]);
  });

  it.each(['{"constructor": 1}', '{"constructor": ["prototype"]}', '{"prototype": {}}', '{"constructor": {"a": {"prototype": 1}}}'])(
    'accepts %s, which names no prototype',
    (text) => {
      expect(parseStrictJson(text)).toEqual(JSON.parse(text));
    },
  );

  it('refuses __proto__, nesting deeper than the limit without using the stack, and names a syntax error', () => {
    expect(problemsOf('{"__proto__": {"quantity": 1}}')).toEqual([['ambiguous', '__proto__', 'the key "__proto__" is not accepted']]);
    expect(problemsOf(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toEqual([
      ['too deep', Array.from({ length: MAX_JSON_DEPTH }, () => 0).join('.'), `is nested more than ${MAX_JSON_DEPTH} levels deep`],
    ]);
    expect(problemsOf('[{"petId": 1,')[0]?.slice(0, 2)).toEqual(['syntax', '']);
  });

  it('skips a UTF-8 byte order mark', () => {
    expect(parseStrictJson('\ufeff[{"petId": 1}]')).toEqual([{ petId: 1 }]);
  });

  it('accepts any JSON text JSON.stringify writes of integers and strings, and finds the key added twice to any object', () => {
    const integersAndStrings = fc.letrec((tie) => ({
      value: fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
      array: fc.array(tie('value'), { maxLength: 4 }),
      // Neither key a prototype can be reached by: those are refused (above).
      object: fc.dictionary(
        fc.string().filter((key) => key !== '__proto__' && key !== 'constructor'),
        tie('value'),
        { maxKeys: 4 },
      ),
    })).value;
    fc.assert(
      fc.property(
        integersAndStrings,
        fc.dictionary(
          fc.string({ minLength: 1 }).filter((key) => key !== '__proto__'),
          fc.integer(),
          { minKeys: 1 },
        ),
        (value, object) => {
          const text = JSON.stringify(value);
          if ((text.match(/[[{]/g)?.length ?? 0) <= MAX_JSON_DEPTH) expect(parseStrictJson(text)).toEqual(JSON.parse(text));
          const [key] = Object.keys(object);
          const repeated = `${JSON.stringify(object).slice(0, -1)},${JSON.stringify(key)}:null}`;
          expect(problemsOf(`{"wrapped": [${repeated}]}`)).toEqual([
            ['ambiguous', `wrapped.0.${key}`, 'occurs more than once in one object'],
          ]);
        },
      ),
      propertyRuns(),
    );
  });
});
