import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killServerProcess, startServerProcess, stopServerProcess } from '../../support/server-process.ts';
import { startWebhookReceiver, webhookSecret } from '../../support/webhook-receiver.ts';

/** Low-stock alerts through npm start as a process: none lost across a kill -9 and a restart. */

const KEY = 'LowStockRestartBusinessKey0001';
const secret = webhookSecret();

async function call(baseUrl: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.status;
}

describe('npm start as a process, with an endpoint that takes only alerts', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'petstore-low-stock-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('delivers every alert raised before a kill -9, once the receiver is back and the server restarted', async () => {
    const receiver = await startWebhookReceiver(secret);
    await receiver.stop();
    const env = {
      DEV_API_KEY: KEY,
      DEV_PLAN: 'business',
      WEBHOOK_URL: `${receiver.url} inventory.low_stock inventory.restocked`,
      WEBHOOK_SECRET: secret,
    };
    const first = await startServerProcess({ dataDir, env });
    expect(first.output()).toContain(
      `webhooks: events are POSTed, signed, to ${receiver.url} (inventory.low_stock, inventory.restocked)\n`,
    );
    // The demo seed's pets 1 and 5 (12 and 7 in stock); each crosses a threshold of 5 down, then up.
    for (const petId of [1, 5]) {
      expect(await call(first.baseUrl, 'PUT', `/inventory/${petId}/low-stock-threshold`, { threshold: 5 })).toBe(200);
      for (const quantity of [10, 4, 3, 8]) expect(await call(first.baseUrl, 'PATCH', `/inventory/${petId}`, { quantity })).toBe(200);
    }
    // The sender's first failed attempt is told once: the alerts are in the outbox by then.
    while (!first.output().includes('Webhook receiver')) await new Promise((resolve) => setTimeout(resolve, 50));
    await killServerProcess(first);

    await receiver.start();
    const second = await startServerProcess({ dataDir, env });
    try {
      const kinds = () =>
        [...receiver.acceptedIds()]
          .filter((id) => /^evt_inventory_[15]_\d+_(low_stock|restocked)$/.test(id))
          .map((id) => id.replace(/^(evt_inventory_\d+)_\d+_/, '$1_#_'));
      await receiver.until(() => kinds().length >= 4);
      expect(kinds().sort()).toEqual([
        'evt_inventory_1_#_low_stock',
        'evt_inventory_1_#_restocked',
        'evt_inventory_5_#_low_stock',
        'evt_inventory_5_#_restocked',
      ]);
      expect(receiver.received.every((one) => one.verified)).toBe(true);
      expect(receiver.received.map((one) => (JSON.parse(one.body) as { type: string }).type)).not.toContain('inventory.changed');
    } finally {
      await stopServerProcess(second);
      await receiver.stop();
    }
  }, 180_000);
});
