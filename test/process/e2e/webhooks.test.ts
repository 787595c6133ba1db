import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWebhookSecret } from '../../../functions/domain/webhooks.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { testAppStore } from '../../support/local-store.ts';
import { takingEverything } from '../../support/pet-changes.ts';
import { killServerProcess, startServerProcess, stopServerProcess } from '../../support/server-process.ts';
import { startWebhookReceiver, webhookSecret, type WebhookReceiver } from '../../support/webhook-receiver.ts';

/**
 * Every change through npm start reaches a real receiver as a signed webhook and the change feed,
 * and the delivered set is the histories' entries: in process, and as a process killed with -9.
 */

const KEY = 'WebhooksBusinessKey00000000001';
const secret = webhookSecret();

interface Change {
  petId: number | bigint;
  version: number;
  [field: string]: unknown;
}

async function call(baseUrl: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Every pet's history (GET /inventory/{petId}/changes), flattened into events' data. */
async function histories(baseUrl: string, petIds: number[]): Promise<Change[]> {
  const all: Change[] = [];
  for (const petId of petIds) {
    const page = await call(baseUrl, 'GET', `/inventory/${petId}/changes?limit=1000`);
    all.push(...(page.body.changes as Change[]).map((change) => ({ ...change, petId })));
  }
  return all;
}

/** The whole feed from its start. */
async function feed(baseUrl: string): Promise<Change[]> {
  const all: Change[] = [];
  let cursor = '';
  for (;;) {
    const page = await call(baseUrl, 'GET', `/inventory/changes?limit=50${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.status).toBe(200);
    const changes = page.body.changes as Change[];
    all.push(...changes);
    cursor = page.body.nextCursor as string;
    if (changes.length === 0) return all;
  }
}

const delivered = (receiver: WebhookReceiver) =>
  receiver.received.filter((one) => one.verified && one.status < 300).map((one) => (JSON.parse(one.body) as { data: Change }).data);
const keyOf = (change: Change) => `${change.petId}:${change.version}`;
const sortedKeys = (changes: Change[]) => [...new Set(changes.map(keyOf))].sort();

describe('npm start with WEBHOOK_URL and WEBHOOK_SECRET', () => {
  let app: LocalApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver(secret);
    app = await startLocalApp({
      ...testAppStore({ recordChanges: true }),
      seed: [1, 2, 3].map((petId) => ({ petId: BigInt(petId), quantity: 10, status: 'available' as const })),
      devApiKey: KEY,
      devPlan: 'business',
      webhooks: { subscriptions: takingEverything(receiver.url), signingKey: parseWebhookSecret(secret, 'WEBHOOK_SECRET') },
    });
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.stop();
  });

  it('delivers each change once, signed, with the same entries as the histories and the feed', async () => {
    await Promise.all([
      call(app.baseUrl, 'PATCH', '/inventory/1', { quantity: 4 }),
      call(app.baseUrl, 'POST', '/inventory/2/adjustments', { delta: -1, reason: 'adjustment' }, { 'Idempotency-Key': 'sale-1' }),
      call(app.baseUrl, 'POST', '/inventory/2/adjustments', { delta: 5, reason: 'arrival' }, { 'Idempotency-Key': 'arrival-1' }),
      call(app.baseUrl, 'PATCH', '/inventory/3', { quantity: 10 }),
    ]);
    await app.history.caughtUp();
    await app.webhooks!.idle();

    const expected = await histories(app.baseUrl, [1, 2, 3]);
    // The seed's three creations and the three changes; the PATCH to the quantity already stored changed nothing.
    expect(expected).toHaveLength(6);
    expect(sortedKeys(delivered(receiver))).toEqual(sortedKeys(expected));
    expect(delivered(receiver)).toHaveLength(6);
    expect(receiver.received.every((one) => one.verified)).toBe(true);
    const byKey = new Map(delivered(receiver).map((change) => [keyOf(change), change]));
    for (const change of expected) expect(byKey.get(keyOf(change))).toEqual(change);
    const fed = await feed(app.baseUrl);
    expect(fed).toEqual(expect.arrayContaining(expected));
    expect(sortedKeys(fed)).toEqual(sortedKeys(expected));
  });

  it('answers 400 INVALID_QUERY for a cursor it did not hand out', async () => {
    const answer = await call(app.baseUrl, 'GET', '/inventory/changes?cursor=bm90LWEtY3Vyc29y');

    expect(answer).toEqual({
      status: 400,
      body: { code: 'INVALID_QUERY', message: 'cursor: not a cursor this operation returned.', status: 400 },
    });
  });
});

describe('npm start as a process', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'petstore-webhooks-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a bad WEBHOOK_SECRET in one line that names it and says why', async () => {
    await expect(
      startServerProcess({ dataDir, env: { DEV_API_KEY: KEY, WEBHOOK_URL: 'http://127.0.0.1:9/hooks', WEBHOOK_SECRET: 'hunter2' } }),
    ).rejects.toThrow(/WEBHOOK_SECRET must start with "whsec_"/);
  });

  it('delivers every change made before a kill -9, once the receiver is back and the server restarted', async () => {
    const receiver = await startWebhookReceiver(secret);
    // A token in the query, as some receivers want it: the start banner and the notices show the origin and path only.
    const url = `${receiver.url}?token=s3cret`;
    await receiver.stop();
    const env = { DEV_API_KEY: KEY, DEV_PLAN: 'business', WEBHOOK_URL: url, WEBHOOK_SECRET: secret };
    const first = await startServerProcess({ dataDir, env });
    const baseUrl = first.baseUrl;
    for (let delta = 1; delta <= 5; delta += 1)
      expect(
        (await call(baseUrl, 'POST', '/inventory/1/adjustments', { delta, reason: 'arrival' }, { 'Idempotency-Key': `crash-${delta}` }))
          .status,
      ).toBe(200);
    const expected = await (async () => {
      // The history is written by the stream consumer within moments; wait for the last version.
      for (;;) {
        const entries = await histories(baseUrl, [1, 2, 3, 4, 5]);
        if (entries.filter((entry) => entry.petId === 1).length === 6) return entries;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    // The sender's first failed attempt is told once; wait for it before the kill.
    while (!first.output().includes('Webhook receiver')) await new Promise((resolve) => setTimeout(resolve, 50));
    await killServerProcess(first);
    expect(first.output()).toContain(`webhooks: events are POSTed, signed, to ${receiver.url}\n`);
    expect(first.output()).toContain(`Webhook receiver ${receiver.url} failed`);
    expect(first.output()).not.toContain('s3cret');

    await receiver.start();
    const second = await startServerProcess({ dataDir, env });
    try {
      // The demo seed's pets 1 to 5 (its sixth, above 2^53, loses digits in JSON.parse and is left out here).
      const ofPetsOneToFive = () => delivered(receiver).filter((change) => Number(change.petId) <= 5);
      await receiver.until(() => sortedKeys(ofPetsOneToFive()).length >= expected.length);
      expect(sortedKeys(ofPetsOneToFive())).toEqual(sortedKeys(expected));
      const petOne = delivered(receiver)
        .filter((change) => change.petId === 1)
        .map((change) => change.version);
      expect(petOne).toEqual([...petOne].sort((a, b) => a - b));
    } finally {
      await stopServerProcess(second);
      await receiver.stop();
    }
  }, 180_000);
});
