import { describe, expect, it } from 'vitest';
import { parsePetId } from '../../../functions/domain/pet-id.ts';

describe('parsePetId', () => {
  it.each([
    ['1', 1n],
    ['9007199254740993', 9_007_199_254_740_993n],
    ['9223372036854775807', 9_223_372_036_854_775_807n],
  ])('reads %s exactly', (text, id) => {
    expect(parsePetId(text)).toBe(id);
  });

  it.each(['0', '-1', '007', '+1', '1.0', '1e3', ' 1', '9223372036854775808', '99999999999999999999', '', undefined])(
    'refuses %j',
    (text) => {
      expect(parsePetId(text)).toBeUndefined();
    },
  );
});
