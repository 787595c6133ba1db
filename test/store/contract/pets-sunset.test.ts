import { afterEach, describe, expect, it, vi } from 'vitest';
import { readPetsSunset } from '../../../functions/config.ts';
import { startLocalApp } from '../../../local/local-app.ts';
import { testAppStore } from '../../support/local-store.ts';
import { DEMO_INVENTORY } from '../../../contract/demo-inventory.ts';
import { ContractValidator } from '../../fast/contract/contract-validator.ts';

const API_KEY = 'VersioningSignalsKey0000000001';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('PETS_SUNSET_DATE', () => {
  it('defaults to 1 July 2027 when unset or empty', () => {
    expect([readPetsSunset({}), readPetsSunset({ PETS_SUNSET_DATE: '' })].map((date) => date.toISOString())).toEqual([
      '2027-07-01T00:00:00.000Z',
      '2027-07-01T00:00:00.000Z',
    ]);
  });

  it('takes an ISO 8601 date or instant', () => {
    expect(readPetsSunset({ PETS_SUNSET_DATE: '2028-01-31' }).toISOString()).toBe('2028-01-31T00:00:00.000Z');
    expect(readPetsSunset({ PETS_SUNSET_DATE: '2028-01-31T12:00:00+02:00' }).toISOString()).toBe('2028-01-31T10:00:00.000Z');
  });

  it.each(['next year', '31/01/2028', '2028-13-45', '2025-12-31'])('refuses %s at start-up', (text) => {
    expect(() => readPetsSunset({ PETS_SUNSET_DATE: text })).toThrow(/PETS_SUNSET_DATE must be/);
  });

  it('sets the Sunset header of every GET /v1/pets/{petId} answer', async () => {
    vi.stubEnv('PETS_SUNSET_DATE', '2027-12-01');
    const contract = await ContractValidator.load();
    const app = await startLocalApp({ ...testAppStore(), seed: DEMO_INVENTORY, devApiKey: API_KEY, devPlan: 'pro' });
    try {
      const answers = await Promise.all(
        ['/pets/1', '/pets/999'].map(async (path) => {
          const url = new URL(`${app.baseUrl}${path}`);
          const response = await contract.checkFetched('GET', url, await fetch(url, { headers: { Authorization: `Bearer ${API_KEY}` } }));
          return [response.status, response.headers.get('sunset'), response.headers.get('deprecation')];
        }),
      );
      expect(answers).toEqual([
        [200, 'Wed, 01 Dec 2027 00:00:00 GMT', '@1767225600'],
        [404, 'Wed, 01 Dec 2027 00:00:00 GMT', '@1767225600'],
      ]);
    } finally {
      await app.close();
    }
  });
});
