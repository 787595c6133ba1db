import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INT64_FIELDS,
  NATIVE_SOURCE_TEXT,
  parseJsonWithInt64,
  parseJsonWithInt64Fallback,
  stringifyJsonWithInt64,
} from '../../../client/int64-json.ts';
import { propertyRuns } from '../../support/property-runs.ts';

const MAX_INT64 = 9_223_372_036_854_775_807n;

describe('parseJsonWithInt64', () => {
  it('keeps every int64 id exact, where JSON.parse would round it', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_INT64 }), fc.nat(), (petId, quantity) => {
        const text = `[{"petId":${petId},"quantity":${quantity},"status":"sold"},{"id":${petId},"status":"sold"}]`;
        expect(parseJsonWithInt64(text)).toEqual([
          { petId, quantity, status: 'sold' },
          { id: petId, status: 'sold' },
        ]);
      }),
      propertyRuns(),
    );
  });

  it("parses with the runtime's JSON.parse where revivers get the source text (Node 21+)", () => {
    expect(NATIVE_SOURCE_TEXT).toBe(true);
  });

  it('leaves other numbers as numbers', () => {
    expect(parseJsonWithInt64('{"code":"X","message":"m","status":429}')).toEqual({ code: 'X', message: 'm', status: 429 });
  });

  it('reads as int64 exactly the properties openapi.json declares int64', async () => {
    const document = JSON.parse(await readFile(new URL('../../../openapi.json', import.meta.url), 'utf8')) as {
      components: { schemas: Record<string, { format?: string; properties?: Record<string, { $ref?: string; format?: string }> }> };
    };
    const schemas = document.components.schemas;
    const isInt64 = (schema: { $ref?: string; format?: string }) =>
      (schema.$ref ? schemas[schema.$ref.replace('#/components/schemas/', '')]?.format : schema.format) === 'int64';
    const declared = Object.values(schemas).flatMap((schema) =>
      Object.entries(schema.properties ?? {})
        .filter(([, property]) => isInt64(property))
        .map(([name]) => name),
    );

    expect(new Set(declared)).toEqual(INT64_FIELDS);
  });
});

describe('parseJsonWithInt64Fallback (Node 20, where revivers get no source text)', () => {
  it('keeps every int64 id exact', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_INT64 }), fc.nat(), (petId, quantity) => {
        const text = ` [ {"petId" : ${petId},"quantity":${quantity},"status":"sold"} ,{"id":${petId},"status":"sold"}]\n`;
        expect(parseJsonWithInt64Fallback(text)).toEqual([
          { petId, quantity, status: 'sold' },
          { id: petId, status: 'sold' },
        ]);
      }),
      propertyRuns(),
    );
  });

  it('gives what the native parser gives for any JSON text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.json({ stringUnit: 'binary' })), (text) => {
        expect(parseJsonWithInt64Fallback(text)).toEqual(parseJsonWithInt64(text));
      }),
      propertyRuns({ numRuns: 500 }),
    );
  });

  it('reads "__proto__" as an own key, as JSON.parse does', () => {
    const parsed = parseJsonWithInt64Fallback('{"__proto__":{"petId":1}}') as Record<string, unknown>;

    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__']);
  });

  it.each(['', '{', '[1,]', '{"a":1,}', '"open', '01', '1.', 'tru', '{"a" 1}', '[1] 2', '"tab\there"'])(
    'refuses %j as JSON.parse does',
    (text) => {
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
      expect(() => parseJsonWithInt64Fallback(text)).toThrow(SyntaxError);
    },
  );
});

describe('stringifyJsonWithInt64', () => {
  const body = (petId: bigint) => ({ adjustments: [{ petId, delta: -1, reason: 'adjustment' }] });
  const text = (petId: bigint) => `{"adjustments":[{"petId":${petId},"delta":-1,"reason":"adjustment"}]}`;

  it('writes every int64 id digit for digit, where JSON.stringify refuses a bigint', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_INT64 }), (petId) => {
        expect(stringifyJsonWithInt64(body(petId))).toBe(text(petId));
      }),
      propertyRuns(),
    );
  });

  it('writes the same text on a runtime without JSON.rawJSON (Node 20)', () => {
    const json = JSON as { rawJSON?: unknown };
    const rawJSON = json.rawJSON;
    delete json.rawJSON;
    try {
      fc.assert(
        fc.property(fc.bigInt({ min: 1n, max: MAX_INT64 }), (petId) => {
          expect(stringifyJsonWithInt64(body(petId))).toBe(text(petId));
        }),
        propertyRuns(),
      );
    } finally {
      json.rawJSON = rawJSON;
    }
  });
});
