import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { DEMO_INVENTORY } from '../../../contract/demo-inventory.ts';
import { testAppStore } from '../../support/local-store.ts';

/**
 * Which operation a path that two resources match reaches: API Gateway takes, at the first segment
 * where they differ, the literal before the parameter; the local server must choose the same.
 */

const KEY = 'RoutePrecedenceKey00000000000001';
let app: LocalApp;

beforeAll(async () => {
  app = await startLocalApp({ ...testAppStore(), seed: DEMO_INVENTORY, devApiKey: KEY, devPlan: 'business' });
});
afterAll(async () => {
  await app?.close();
});

const call = async (method: string, path: string) => {
  const response = await fetch(`${app.baseUrl}${path}`, { method, headers: { Authorization: `Bearer ${KEY}` } });
  return { status: response.status, code: ((await response.json()) as { code?: string }).code };
};

describe('a path that two resources match', () => {
  it('reaches the reservation, not pet "reservations": /inventory/reservations/{reservationId} over /inventory/{petId}/adjustments', async () => {
    expect(await call('GET', '/inventory/reservations/adjustments')).toEqual({ status: 404, code: 'RESERVATION_NOT_FOUND' });
  });

  it('is no route for a method the chosen resource lacks, even when the other resource has it', async () => {
    expect(await call('POST', '/inventory/reservations/adjustments')).toEqual({ status: 404, code: 'ROUTE_NOT_FOUND' });
  });

  it('still reaches the fixed path before a pet: /inventory/adjustments and /inventory/changes', async () => {
    expect((await call('GET', '/inventory/changes')).status).toBe(200);
    expect(await call('GET', '/inventory/adjustments')).toEqual({ status: 404, code: 'ROUTE_NOT_FOUND' });
  });
});
