import { beforeAll, describe, expect, it } from 'vitest';
import { ContractValidator, ContractViolation, type ObservedResponse } from './contract-validator.ts';

/** The validator the contract tests rely on must refuse what the document does not allow. */

let contract: ContractValidator;

beforeAll(async () => {
  contract = await ContractValidator.load();
});

const RATE_LIMIT = {
  'X-RateLimit-Limit': '60',
  'X-RateLimit-Remaining': '59',
  'X-RateLimit-Reset': '1795304460',
  'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
  RateLimit: '"minute";r=59;t=41, "day";r=999;t=3641',
};
const JSON_TYPE = { 'Content-Type': 'application/json', 'X-Request-Id': '4c2f7a1e-3b9d-4e0f-8a61-2d5b7c9e0f13' };
const LISTING = { ...JSON_TYPE, Vary: 'Accept-Encoding' };

function answer(overrides: Partial<Omit<ObservedResponse, 'headers'>> & { headers?: Record<string, string> } = {}): ObservedResponse {
  const { headers = { ...LISTING, ...RATE_LIMIT }, ...rest } = overrides;
  return {
    method: 'GET',
    path: '/v1/inventory',
    status: 200,
    text: '[{"petId":9007199254740993,"quantity":2,"status":"available","reserved":0,"available":2}]',
    ...rest,
    headers: new Headers(headers),
  };
}

describe('ContractValidator', () => {
  it('accepts an answer the document describes', () => {
    expect(() => contract.check(answer())).not.toThrow();
  });

  it('accepts a 204 without a body or Content-Type, and refuses one with them', () => {
    const removed = { method: 'DELETE', path: '/v1/inventory/1/low-stock-threshold', status: 204 } as const;
    const headers = { 'X-Request-Id': JSON_TYPE['X-Request-Id'], ...RATE_LIMIT, 'X-API-Stability': 'experimental' };
    expect(() => contract.check(answer({ ...removed, text: '', headers }))).not.toThrow();
    expect(() => contract.check(answer({ ...removed, text: '{}', headers: { ...headers, ...JSON_TYPE } }))).toThrow(ContractViolation);
  });

  it.each([
    ['a body field of the wrong type', answer({ text: '[{"petId":"1","quantity":2,"status":"available"}]' })],
    ['a status outside PetStatus', answer({ text: '[{"petId":1,"quantity":2,"status":"lost"}]' })],
    ['a quantity below 0', answer({ text: '[{"petId":1,"quantity":-1,"status":"available"}]' })],
    ['a field the schema does not have', answer({ text: '[{"petId":1,"quantity":2,"status":"available","name":"Rex"}]' })],
    ['an undocumented status', answer({ status: 418, text: '{"code":"TEAPOT","message":"no","status":418}' })],
    ['a missing required header', answer({ headers: { ...LISTING, 'X-RateLimit-Limit': '60', 'X-RateLimit-Reset': '1795304460' } })],
    ['a listing without Vary', answer({ headers: { ...JSON_TYPE, ...RATE_LIMIT } })],
    ['a header value of the wrong type', answer({ headers: { ...LISTING, ...RATE_LIMIT, 'X-RateLimit-Remaining': 'many' } })],
    ['a coding the document does not list', answer({ headers: { ...LISTING, ...RATE_LIMIT, 'Content-Encoding': 'deflate' } })],
    ['another Content-Type', answer({ headers: { ...LISTING, 'Content-Type': 'text/plain', ...RATE_LIMIT } })],
    ['an answer without X-Request-Id', answer({ headers: { 'Content-Type': 'application/json', Vary: 'Accept-Encoding', ...RATE_LIMIT } })],
    [
      'an error without the Error shape',
      answer({ status: 429, text: '{"error":"slow down"}', headers: { ...LISTING, ...RATE_LIMIT, 'Retry-After': '3' } }),
    ],
    ['a 429 without Retry-After', answer({ status: 429, text: '{"code":"RATE_LIMIT_EXCEEDED","message":"slow down","status":429}' })],
    [
      'a deprecated operation without Sunset',
      answer({
        path: '/v1/pets/1',
        text: '{"id":1,"status":"sold"}',
        headers: { ...JSON_TYPE, ...RATE_LIMIT, Deprecation: '@1767225600', Link: '<https://docs.petstore.example>; rel="sunset"' },
      }),
    ],
    ['an unknown route answering 200', answer({ path: '/v1/orders', text: '[]' })],
  ])('refuses %s', (_case, response) => {
    expect(() => contract.check(response)).toThrow(ContractViolation);
  });
});
