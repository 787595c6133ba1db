import fc from 'fast-check';
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { negotiateEncoding } from '../../../functions/http/content-encoding.ts';
import { jsonArrayStream, STREAM_ABORTED_LOG_MESSAGE } from '../../../functions/http/json-array-stream.ts';
import { flatRecordJson, toJson } from '../../../functions/int64-json.ts';
import { propertyRuns } from '../../support/property-runs.ts';

const ENTRY = { petId: 1n, quantity: 1, status: 'available' };

/** A listing that yields `batches` batches of one entry each. */
async function* batchesOf(batches: number): AsyncGenerator<(typeof ENTRY)[]> {
  for (let index = 0; index < batches; index += 1) yield [{ ...ENTRY, petId: BigInt(index + 1) }];
}

async function started(batches: number) {
  const rest = batchesOf(batches);
  return { first: await rest.next(), rest };
}

describe('a streamed JSON array', () => {
  let logged: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    vi.stubEnv('LOG_LEVEL', 'info');
    logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('joins the batches into one array, with the closing bracket after the last', async () => {
    const { first, rest } = await started(3);

    const { statusCode, body } = jsonArrayStream(first, rest, {
      encoding: undefined,
      deadlineAt: Date.now() + 10_000,
      functionRequestId: 'r',
    });

    expect(statusCode).toBe(200);
    expect((await body.toArray()).join('')).toBe(
      '[{"petId":1,"quantity":1,"status":"available"},{"petId":2,"quantity":1,"status":"available"},{"petId":3,"quantity":1,"status":"available"}]',
    );
  });

  it('cuts the answer before it would pass the byte limit, and says so', async () => {
    const { first, rest } = await started(1_000);
    const { body } = jsonArrayStream(first, rest, {
      encoding: undefined,
      deadlineAt: Date.now() + 10_000,
      functionRequestId: 'r',
      maxBytes: 200,
    });

    const received: string[] = [];
    body.on('data', (chunk: Buffer) => received.push(chunk.toString()));
    const [error] = (await once(body, 'error').catch((failure: unknown) => [failure])) as [Error];

    expect(error.message).toContain('200 bytes');
    expect(received.join('').length).toBeLessThanOrEqual(200);
    expect(received.join('')).not.toContain(']');
    expect(logged.mock.calls.flat().join('\n')).toContain(STREAM_ABORTED_LOG_MESSAGE);
  });

  it('cuts the answer at the deadline while the client is slow to read, and stops reading the store', async () => {
    const { first, rest } = await started(1_000_000);
    const stopped = vi.spyOn(rest, 'return');
    const { body } = jsonArrayStream(first, rest, { encoding: 'gzip', deadlineAt: Date.now() + 50, functionRequestId: 'r' });

    // Nobody reads the body: the stream fills its buffers and waits, until the deadline.
    const [error] = (await once(body, 'error').catch((failure: unknown) => [failure])) as [Error];

    expect(error.message).toContain('deadline');
    expect(stopped).toHaveBeenCalled();
    expect(logged.mock.calls.flat().join('\n')).toContain(STREAM_ABORTED_LOG_MESSAGE);
  });
});

describe('negotiateEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip;q=1.0, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['gzip;q=0, *;q=0', undefined],
    ['deflate, compress', undefined],
    ['gzip;q=nonsense', undefined],
  ])('Accept-Encoding %j → %j', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('flatRecordJson', () => {
  it('writes a flat record as toJson does, bigints as exact integers', () => {
    const value = fc.oneof(
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), value), (record) => {
        expect(flatRecordJson(record)).toBe(toJson(record));
      }),
      propertyRuns(),
    );
  });
});
