import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJsonArrayWithInt64 } from '../../../client/int64-json.ts';
import { readJsonArray } from '../../../client/json-array-reader.ts';
import { propertyRuns } from '../../support/property-runs.ts';

const encoder = new TextEncoder();

/** The text as a byte stream cut at the given offsets (in bytes, so that a character may straddle two chunks). */
function streamOf(text: string, cuts: readonly number[] = []): ReadableStream<Uint8Array> {
  const bytes = encoder.encode(text);
  const offsets = [...new Set([0, ...cuts.map((cut) => cut % (bytes.length + 1)), bytes.length])].sort((a, b) => a - b);
  const chunks = offsets.slice(1).map((end, index) => bytes.slice(offsets[index], end));
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

describe('readJsonArray', () => {
  it('reads any JSON array as JSON.parse does, however the stream cuts it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue()), fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), async (value, cuts, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(await readJsonArray(streamOf(text, cuts), (element) => JSON.parse(element) as unknown)).toEqual(JSON.parse(text));
      }),
      propertyRuns(),
    );
  });

  it('parses each element as soon as its text is complete, before the rest of the body arrives', async () => {
    const parsed: unknown[] = [];
    let more: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        more = controller;
        controller.enqueue(encoder.encode('[{"petId":1,"note":"a ] , } in a string \\" too"},'));
      },
    });

    const reading = readJsonArray(body, (element) => parsed.push(JSON.parse(element)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(parsed).toEqual([{ petId: 1, note: 'a ] , } in a string " too' }]);
    more!.enqueue(encoder.encode('{"petId":2}]'));
    more!.close();

    expect(await reading).toHaveLength(2);
    expect(parsed).toEqual([{ petId: 1, note: 'a ] , } in a string " too' }, { petId: 2 }]);
  });

  it.each([
    ['a listing cut before its closing bracket', '[{"petId":1},{"petId":2}'],
    ['a listing cut inside an element', '[{"petId":1},{"pet'],
    ['an empty body', ''],
    ['a trailing comma', '[1,]'],
    ['a leading comma', '[,1]'],
    ['text after the array', '[1] 2'],
    ['an object instead of an array', '{"petId":1}'],
  ])('refuses %s with a SyntaxError', async (_case, text) => {
    await expect(readJsonArray(streamOf(text), (element) => JSON.parse(element) as unknown)).rejects.toThrow(SyntaxError);
  });

  it('keeps 19-digit ids exact', async () => {
    expect(await readJsonArrayWithInt64(streamOf('[{"petId":9223372036854775807,"quantity":1}]', [5, 17]))).toEqual([
      { petId: 9_223_372_036_854_775_807n, quantity: 1 },
    ]);
  });
});
