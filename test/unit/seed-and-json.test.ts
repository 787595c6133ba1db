import { describe, expect, it } from 'vitest';
import { parsePetId } from '../../functions/domain/pet-id.ts';
import { toJson } from '../../functions/http/json.ts';
import { parseSeed } from '../../local/seed.ts';

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

describe('toJson', () => {
  it('writes bigints as exact integer literals', () => {
    expect(toJson([{ petId: 9_223_372_036_854_775_807n, quantity: 1 }])).toBe('[{"petId":9223372036854775807,"quantity":1}]');
  });
});

describe('parseSeed', () => {
  it('keeps every digit of ids above 2^53', () => {
    expect(parseSeed('[{"petId": 9007199254740993, "quantity": 2, "status": "available"}]')).toEqual([
      { petId: 9_007_199_254_740_993n, quantity: 2, status: 'available' },
    ]);
  });

  it.each([
    ['not an array', '{"petId": 1}', /not a JSON array of InventoryItem/],
    ['a fractional id', '[{"petId": 1.5, "quantity": 2, "status": "available"}]', /not a JSON array of InventoryItem/],
    ['an unknown status', '[{"petId": 1, "quantity": 2, "status": "lost"}]', /not a JSON array of InventoryItem/],
    [
      'a repeated id',
      '[{"petId": 1, "quantity": 2, "status": "sold"}, {"petId": 1, "quantity": 3, "status": "sold"}]',
      /lists petId 1 more than once/,
    ],
  ])('refuses %s', (_case, text, message) => {
    expect(() => parseSeed(text)).toThrow(message);
  });
});
