import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWebhookSecret } from '../../../functions/domain/webhooks.ts';
import { INVENTORY_LOW_STOCK, INVENTORY_RESTOCKED } from '../../../functions/domain/vocabulary.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { testAppStore } from '../../support/local-store.ts';
import { takingEverything } from '../../support/pet-changes.ts';
import { startWebhookReceiver, webhookSecret, type WebhookReceiver } from '../../support/webhook-receiver.ts';

/**
 * Low-stock alerts through the local app, to real receivers on 127.0.0.1 that verify each
 * signature with the standardwebhooks package: one alert per crossing, whatever the changes.
 */

const KEY = 'LowStockAlertsBusinessKey00001';
const secret = webhookSecret();

interface Delivered {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

async function call(baseUrl: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

/** What a receiver accepted, verified, once per webhook-id, in the order received. */
function delivered(receiver: WebhookReceiver): Delivered[] {
  const seen = new Map<string, Delivered>();
  for (const one of receiver.received)
    if (one.verified && one.status < 300) {
      const { type, data } = JSON.parse(one.body) as { type: string; data: Record<string, unknown> };
      seen.set(String(one.headers['webhook-id']), { id: String(one.headers['webhook-id']), type, data });
    }
  return [...seen.values()];
}

const alertsOf = (receiver: WebhookReceiver, petId: number) =>
  delivered(receiver).filter(({ type, data }) => type !== 'inventory.changed' && data.petId === petId);

describe('low-stock alerts from npm start', () => {
  let app: LocalApp;
  let everything: WebhookReceiver;
  let alertsOnly: WebhookReceiver;

  /** Waits until every change made so far is recorded and every webhook delivered. */
  async function settled(): Promise<void> {
    await app.history.caughtUp();
    await app.webhooks!.idle();
  }

  beforeAll(async () => {
    everything = await startWebhookReceiver(secret);
    alertsOnly = await startWebhookReceiver(secret);
    app = await startLocalApp({
      ...testAppStore({ recordChanges: true }),
      seed: [1, 2, 3, 4, 5].map((petId) => ({ petId: BigInt(petId), quantity: 10, status: 'available' as const })),
      devApiKey: KEY,
      devPlan: 'business',
      webhooks: {
        subscriptions: [
          ...takingEverything(everything.url),
          { url: alertsOnly.url, eventTypes: [INVENTORY_LOW_STOCK, INVENTORY_RESTOCKED] },
        ],
        signingKey: parseWebhookSecret(secret, 'WEBHOOK_SECRET'),
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await everything?.stop();
    await alertsOnly?.stop();
  });

  it('10 → 6 → 4 → 3 → 8 against a threshold of 5 gives one low_stock at 4 and one restocked at 8, each after its change', async () => {
    expect(await call(app.baseUrl, 'PUT', '/inventory/1/low-stock-threshold', { threshold: 5 })).toEqual({
      status: 200,
      body: { petId: 1, threshold: 5 },
    });
    for (const quantity of [6, 4, 3, 8]) expect((await call(app.baseUrl, 'PATCH', '/inventory/1', { quantity })).status).toBe(200);
    await settled();

    // The seed made version 1 (10); the PATCHes made 2 (6), 3 (4), 4 (3) and 5 (8).
    const expected = [
      {
        id: 'evt_inventory_1_3_low_stock',
        type: 'inventory.low_stock',
        data: { petId: 1, threshold: 5, available: 4, quantity: 4, reserved: 0, version: 3 },
      },
      {
        id: 'evt_inventory_1_5_restocked',
        type: 'inventory.restocked',
        data: { petId: 1, threshold: 5, available: 8, quantity: 8, reserved: 0, version: 5 },
      },
    ];
    expect(alertsOf(everything, 1)).toEqual(expected);
    expect(alertsOf(alertsOnly, 1)).toEqual(expected);
    const ids = delivered(everything)
      .filter(({ data }) => data.petId === 1)
      .map(({ id }) => id);
    expect(ids.indexOf('evt_inventory_1_3_low_stock')).toBe(ids.indexOf('evt_inventory_1_3') + 1);
    expect(ids.indexOf('evt_inventory_1_5_restocked')).toBe(ids.indexOf('evt_inventory_1_5') + 1);
    // Setting the threshold made no version: the history holds the seed's and the four PATCHes' only.
    const history = await call(app.baseUrl, 'GET', '/inventory/1/changes');
    expect((history.body!.changes as unknown[]).length).toBe(5);
  });

  it('10 concurrent sales through the threshold raise one low_stock', async () => {
    await call(app.baseUrl, 'PUT', '/inventory/2/low-stock-threshold', { threshold: 5 });
    const sales = await Promise.all(
      Array.from({ length: 10 }, (_, sale) =>
        call(
          app.baseUrl,
          'POST',
          '/inventory/2/adjustments',
          { delta: -1, reason: 'adjustment' },
          { 'Idempotency-Key': `pet-2-sale-${sale}` },
        ),
      ),
    );
    expect(sales.map(({ status }) => status)).toEqual(Array(10).fill(200));
    await settled();

    const alerts = alertsOf(everything, 2);
    expect(alerts.map(({ type, data }) => [type, data.available, data.threshold])).toEqual([['inventory.low_stock', 4, 5]]);
    expect(alertsOf(alertsOnly, 2)).toEqual(alerts);
  });

  it('raises no alert for a pet without a threshold, nor after its threshold is removed', async () => {
    for (const quantity of [6, 4, 3, 8]) await call(app.baseUrl, 'PATCH', '/inventory/3', { quantity });
    await call(app.baseUrl, 'PUT', '/inventory/4/low-stock-threshold', { threshold: 5 });
    expect(await call(app.baseUrl, 'DELETE', '/inventory/4/low-stock-threshold')).toEqual({ status: 204, body: undefined });
    for (const quantity of [6, 4, 3, 8]) await call(app.baseUrl, 'PATCH', '/inventory/4', { quantity });
    await settled();

    expect(alertsOf(everything, 3)).toEqual([]);
    expect(alertsOf(everything, 4)).toEqual([]);
    expect(delivered(everything).filter(({ data }) => data.petId === 3)).toHaveLength(5);
  });

  it('sends an endpoint that takes only alerts no inventory.changed', async () => {
    await settled();
    expect(delivered(alertsOnly).length).toBeGreaterThan(0);
    expect(delivered(alertsOnly).filter(({ type }) => type === 'inventory.changed')).toEqual([]);
    expect(alertsOnly.received.every((one) => one.verified)).toBe(true);
  });

  it('gets each alert to a receiver that was down, once it is back, with the same id', async () => {
    await call(app.baseUrl, 'PUT', '/inventory/5/low-stock-threshold', { threshold: 5 });
    await alertsOnly.stop();
    for (const quantity of [4, 9]) await call(app.baseUrl, 'PATCH', '/inventory/5', { quantity });
    await app.history.caughtUp();
    await everything.until(() => alertsOf(everything, 5).length === 2);
    await alertsOnly.start();
    await settled();

    expect(alertsOf(alertsOnly, 5).map(({ id }) => id)).toEqual(['evt_inventory_5_2_low_stock', 'evt_inventory_5_3_restocked']);
  });

  it('lists the reorder report: only the pets below their threshold, sorted by petId', async () => {
    await settled();
    await call(app.baseUrl, 'PATCH', '/inventory/1', { quantity: 2 });
    const report = await call(app.baseUrl, 'GET', '/inventory?lowStock=true');
    // Pet 1 (2 < 5) and pet 2 (0 < 5); pet 5 is back at 9, pets 3 and 4 have no threshold.
    expect(report).toEqual({
      status: 200,
      body: [
        { petId: 1, quantity: 2, status: 'available', reserved: 0, available: 2 },
        { petId: 2, quantity: 0, status: 'available', reserved: 0, available: 0 },
      ],
    });
    expect((await call(app.baseUrl, 'GET', '/inventory?lowStock=false')).body).toHaveLength(5);
    expect(await call(app.baseUrl, 'GET', '/inventory?lowStock=yes')).toEqual({
      status: 400,
      body: { code: 'INVALID_QUERY', message: 'lowStock: must be true or false, not "yes".', status: 400 },
    });
  });

  it('a reservation that leaves too little available raises one low_stock, and its release one restocked', async () => {
    await settled();
    const before = await call(app.baseUrl, 'GET', '/inventory/4');
    const quantity = before.body!.quantity as number;
    expect(before.body!.reserved).toBe(0);
    await call(app.baseUrl, 'PUT', '/inventory/4/low-stock-threshold', { threshold: 5 });
    // Holding all but 4 leaves 4 available: below 5, with the stock on hand unchanged.
    const reserved = await call(
      app.baseUrl,
      'POST',
      '/inventory/reservations',
      { items: [{ petId: 4, quantity: quantity - 4 }], reference: 'cart-low-stock' },
      { 'Idempotency-Key': 'low-stock-reservation-1' },
    );
    expect(reserved.status).toBe(201);
    await settled();
    const reserveVersion = await lastVersion(4);

    expect(alertsOf(everything, 4)).toEqual([
      {
        id: `evt_inventory_4_${reserveVersion}_low_stock`,
        type: 'inventory.low_stock',
        data: { petId: 4, threshold: 5, available: 4, quantity, reserved: quantity - 4, version: reserveVersion },
      },
    ]);

    expect((await call(app.baseUrl, 'DELETE', `/inventory/reservations/${reserved.body!.reservationId as string}`)).status).toBe(200);
    await settled();
    const releaseVersion = await lastVersion(4);
    expect(alertsOf(everything, 4).map(({ id, type }) => ({ id, type }))).toEqual([
      { id: `evt_inventory_4_${reserveVersion}_low_stock`, type: 'inventory.low_stock' },
      { id: `evt_inventory_4_${releaseVersion}_restocked`, type: 'inventory.restocked' },
    ]);
    await call(app.baseUrl, 'DELETE', '/inventory/4/low-stock-threshold');
  });

  /** The version of a pet's latest change, from its history. */
  async function lastVersion(petId: number): Promise<number> {
    const history = await call(app.baseUrl, 'GET', `/inventory/${petId}/changes?limit=100`);
    return (history.body!.changes as { version: number }[]).at(-1)!.version;
  }
});
