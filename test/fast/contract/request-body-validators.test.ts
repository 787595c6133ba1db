import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { REQUEST_BODY_SCHEMAS, type RequestBodyName } from '../../../contract/request-body-schemas.ts';
import { bodyJsonSchema } from '../../../contract/request-body-validators.ts';
import { describeBodyErrors, type BodyValidator } from '../../../functions/http/json-body.ts';
import * as compiled from '../../../functions/http/request-body-validators.generated.ts';
import { propertyRuns } from '../../support/property-runs.ts';

type JsonSchema = Record<string, unknown>;

/** As JSON.parse gives it: plain objects (fast-check also makes objects without a prototype), -0 kept. */
function asParsedJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asParsedJson);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, asParsedJson(field)]));
  return value;
}

/** Values at and just past a field's bounds, its options and lengths: where two validators would part ways. */
function edgesOf(schema: JsonSchema): unknown[] {
  const edges: unknown[] = [];
  for (const bound of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
    const value = schema[bound];
    if (typeof value === 'number') edges.push(value, value - 1, value + 1, value - 0.5, value + 0.5, -value);
  }
  if (Array.isArray(schema.enum))
    edges.push(
      ...schema.enum,
      ...schema.enum.map((option) => `${String(option)} `),
      ...schema.enum.map((option) => String(option).toUpperCase()),
    );
  for (const bound of ['minLength', 'maxLength']) {
    const length = schema[bound];
    // Astral characters count two in JavaScript and zod, one in Ajv's default: the compiled code must count as zod does.
    if (typeof length === 'number')
      edges.push(...[length - 1, length, length + 1].filter((n) => n >= 0).flatMap((n) => ['x'.repeat(n), '😀'.repeat(n)]));
  }
  return edges;
}

/** A field's value: JSON of any kind, numbers and strings of every sort, and the field's edges. */
function valueFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  const edges = edgesOf(schema);
  return fc.oneof(
    fc.jsonValue(),
    fc.integer({ min: -(2 ** 32), max: 2 ** 32 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.constantFrom(null, true, false, 0, -0, [], {}, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, 1e21, ...edges),
  );
}

/** Bodies near the schema: its fields present or not, with any of those values, and sometimes a field it does not know. */
function bodiesFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const fields = fc.record(Object.fromEntries(Object.entries(properties).map(([name, field]) => [name, valueFor(field)])), {
    requiredKeys: [],
  });
  const unknownFields = fc.dictionary(
    fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('status', 'petId', 'constructor', 'toString')),
    fc.jsonValue(),
    { maxKeys: 2 },
  );
  return fc
    .oneof(
      { weight: 6, arbitrary: fields },
      { weight: 2, arbitrary: fc.tuple(fields, unknownFields).map(([known, unknown]) => ({ ...unknown, ...known })) },
      { weight: 1, arbitrary: fc.jsonValue() },
    )
    .map(asParsedJson);
}

/** The message the zod validation of a body gave before: each issue as `path: message`, the body itself as `body`. */
function zodMessage(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'body'}: ${issue.message}`).join('; ');
}

const bodies = Object.entries(REQUEST_BODY_SCHEMAS).map(([name, schema]) => ({
  name,
  schema: schema as z.ZodType,
  // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the property visits every compiled validator by its schema's name; a test bundles nothing.
  validate: compiled[name as RequestBodyName] as BodyValidator<unknown>,
}));

describe.each(bodies)('the compiled validator of $name', ({ schema, validate }) => {
  it('accepts and refuses exactly the bodies its zod schema accepts and refuses, and zod would change none it accepts', () => {
    fc.assert(
      fc.property(bodiesFor(bodyJsonSchema(schema)), (body) => {
        const parsed = schema.safeParse(body);
        expect(validate({ body })).toBe(parsed.success);
        if (parsed.success) expect(parsed.data).toStrictEqual(body);
      }),
      propertyRuns({ numRuns: 3_000 }),
    );
  });

  it('describes a body with one fault in the words zod used', () => {
    fc.assert(
      fc.property(bodiesFor(bodyJsonSchema(schema)), (body) => {
        const parsed = schema.safeParse(body);
        fc.pre(!parsed.success && parsed.error.issues.length === 1);
        validate({ body });
        expect(describeBodyErrors(validate.errors ?? [])).toBe(zodMessage(parsed.error!));
      }),
      propertyRuns({ numRuns: 1_000 }),
    );
  });
});

describe('the InventoryUpdate messages', () => {
  it.each([
    ['{"quantity": -1}', 'quantity: Too small: expected number to be >=0'],
    ['{}', 'quantity: Invalid input: expected number, received undefined'],
    ['{"quantity": 1.5}', 'quantity: Invalid input: expected int, received number'],
    ['{"quantity": 1, "status": "sold", "owner": "x"}', 'body: Unrecognized keys: "status", "owner"'],
    ['[{"quantity": 1}]', 'body: Invalid input: expected object, received array'],
    ['{"quantity": "5", "status": "sold"}', 'quantity: Invalid input: expected number, received string; body: Unrecognized key: "status"'],
  ])('%s → %s', (text, message) => {
    const body: unknown = JSON.parse(text);

    expect(compiled.InventoryUpdate({ body })).toBe(false);
    expect(describeBodyErrors(compiled.InventoryUpdate.errors ?? [])).toBe(message);
    expect(zodMessage(REQUEST_BODY_SCHEMAS.InventoryUpdate.safeParse(body).error!)).toBe(message);
  });
});
