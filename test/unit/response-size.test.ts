import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../functions/http/json.ts';
import { proxyResultBytes } from '../../functions/http/response-size.ts';

describe('proxyResultBytes', () => {
  it('equals the size of the serialized Lambda result for any JSON body', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = jsonResponse(200, value, { 'X-RateLimit-Limit': '60' });

        expect(proxyResultBytes(result)).toBe(Buffer.byteLength(JSON.stringify(result), 'utf8'));
      }),
      { numRuns: 300 },
    );
  });
});
