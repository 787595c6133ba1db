import { describe, expect, it } from 'vitest';
import { toJson } from '../../../functions/int64-json.ts';

describe('toJson', () => {
  it('writes bigints as exact integer literals', () => {
    expect(toJson([{ petId: 9_223_372_036_854_775_807n, quantity: 1 }])).toBe('[{"petId":9223372036854775807,"quantity":1}]');
  });
});
