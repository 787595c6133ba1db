import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendWebhook } from '../../functions/adapters/webhooks/webhook-sender.ts';
import type { PetChange } from '../../functions/domain/inventory-events.ts';
import type { WebhookRetryPolicy } from '../../functions/domain/webhook-delivery.ts';
import { parseWebhookSecret } from '../../functions/domain/webhooks.ts';
import {
  MAX_ATTEMPTS_IN_FLIGHT_PER_ENDPOINT,
  startWebhookDeliveries,
  type WebhookDeliveries,
} from '../../local/webhook-delivery-worker.ts';
import { createWebhookOutbox, type WebhookOutbox } from '../../local/webhook-outbox.ts';
import { petChange } from '../support/pet-changes.ts';
import { startTestStore, type TestStore } from '../support/local-store.ts';
import { startHangingReceiver, startWebhookReceiver, webhookSecret, type WebhookReceiver } from '../support/webhook-receiver.ts';

/** npm start's webhook outbox and sender against DynamoDB Local and a real receiver on 127.0.0.1. */

const secret = webhookSecret();
const signingKey = parseWebhookSecret(secret, 'WEBHOOK_SECRET');
/** The production policy's shape at a twentieth of its pace: 20 s of a receiver's absence take 1 s. */
const FAST: WebhookRetryPolicy = { firstRetryDelayMs: 50, maxRetryDelayMs: 3_000, retryForMs: 60_000, attemptTimeoutMs: 500 };

let store: TestStore;
let outbox: WebhookOutbox;
let receiver: WebhookReceiver;
let deliveries: WebhookDeliveries | undefined;

beforeAll(async () => {
  store = await startTestStore();
  outbox = createWebhookOutbox(store.dependencies.client, store.tables.webhookOutboxTable);
});
afterAll(async () => {
  await store?.close();
});
afterEach(async () => {
  await deliveries?.close();
  deliveries = undefined;
  await receiver?.stop();
});

let nextPet = 1_000n;
function changesOf(petId: bigint, versions: number): PetChange[] {
  return Array.from({ length: versions }, (_, index) =>
    petChange(petId, index + 1, new Date(Date.UTC(2026, 10, 24, 8, 0, index)).toISOString()),
  );
}

/** Every attempt the sender made: when, to which event, and how it ended. */
function recordingSender(attempts: Array<{ at: number; id: string; delivered: boolean }>): typeof sendWebhook {
  return async (url, message, key, timeoutMs) => {
    const outcome = await sendWebhook(url, message, key, timeoutMs);
    attempts.push({ at: Date.now(), id: message.id, delivered: outcome.delivered });
    return outcome;
  };
}

async function queue(changes: PetChange[], url = receiver.url): Promise<void> {
  await outbox.enqueue([url], changes, Date.now());
  deliveries?.wake();
}

describe('webhook deliveries from npm start', () => {
  it('posts each change once, signed as standardwebhooks verifies, with the entry and petId as data', async () => {
    receiver = await startWebhookReceiver(secret);
    deliveries = startWebhookDeliveries({ outbox, signingKey, policy: FAST });
    const petId = (nextPet += 1n);

    await queue(changesOf(petId, 2));
    await receiver.until((received) => received.length >= 2);
    await deliveries.idle();

    expect(receiver.received.map((one) => one.verified)).toEqual([true, true]);
    expect(receiver.received.map((one) => one.headers['webhook-id'])).toEqual([`evt_inventory_${petId}_1`, `evt_inventory_${petId}_2`]);
    const first = receiver.received[0]!;
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.body).toBe(
      `{"type":"inventory.changed","timestamp":"2026-11-24T08:00:00.000Z","data":{"petId":${petId},"version":1,"occurredAt":"2026-11-24T08:00:00.000Z","kind":"adjustment","quantityBefore":0,"quantityAfter":1,"delta":1,"status":"available","reason":"arrival","idempotencyKey":"arrival-1","requestId":"request-${petId}-1","keyId":"key_test"}}`,
    );
    expect(Math.abs(Number(first.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(await outbox.list('pending')).toEqual([]);
  });

  it('is refused by the receiver when signed under another secret or changed on the way', async () => {
    receiver = await startWebhookReceiver(secret);
    const message = { id: 'evt_inventory_1_1', body: '{"type":"inventory.changed"}' };

    const otherSecret = await sendWebhook(receiver.url, message, parseWebhookSecret(webhookSecret(), 'other'), 1_000);
    const signed = await sendWebhook(receiver.url, message, signingKey, 1_000);

    expect(otherSecret).toEqual({ delivered: false, failure: 'answered 400' });
    expect(signed).toEqual({ delivered: true, status: 200 });
    expect(receiver.received.map((one) => one.verified)).toEqual([false, true]);
  });

  it('retries after a 500 with the same webhook-id and body, a second later (the real policy)', async () => {
    receiver = await startWebhookReceiver(secret);
    let answers = 0;
    receiver.answerWith(() => (answers++ === 0 ? 500 : 204));
    deliveries = startWebhookDeliveries({ outbox, signingKey });
    const petId = (nextPet += 1n);

    await queue(changesOf(petId, 1));
    await receiver.until((received) => received.length >= 2);
    await deliveries.idle();

    const [failed, retried] = receiver.received;
    expect([failed!.status, retried!.status]).toEqual([500, 204]);
    expect(retried!.headers['webhook-id']).toBe(failed!.headers['webhook-id']);
    expect(retried!.body).toBe(failed!.body);
    expect(retried!.verified).toBe(true);
    expect(retried!.receivedAt - failed!.receivedAt).toBeGreaterThanOrEqual(950);
  });

  it('keeps retrying, doubling the wait up to its cap, while the receiver refuses connections, and delivers when it is back', async () => {
    receiver = await startWebhookReceiver(secret);
    await receiver.stop();
    const attempts: Array<{ at: number; id: string; delivered: boolean }> = [];
    const policy = { ...FAST, maxRetryDelayMs: 400 };
    deliveries = startWebhookDeliveries({ outbox, signingKey, policy, send: recordingSender(attempts) });
    const petId = (nextPet += 1n);

    await queue(changesOf(petId, 3));
    // Down for at least 1 s and six attempts: at a twentieth of the pace, 20 s of the real policy.
    const downSince = Date.now();
    while (Date.now() - downSince < 1_000 || attempts.length < 6) await new Promise((resolve) => setTimeout(resolve, 50));
    await receiver.start();
    await receiver.until((received) => received.length >= 3);
    await deliveries.idle();

    expect(receiver.received.map((one) => one.headers['webhook-id'])).toEqual(
      [1, 2, 3].map((version) => `evt_inventory_${petId}_${version}`),
    );
    const failedTimes = attempts.filter((attempt) => !attempt.delivered).map((attempt) => attempt.at);
    const waits = failedTimes.slice(1).map((at, index) => at - failedTimes[index]!);
    // 50, 100, 200, then the 400 ms cap: each wait at least what the policy says (a busy machine only adds to it).
    for (const [index, wait] of waits.entries()) expect(wait).toBeGreaterThanOrEqual(Math.min(50 * 2 ** index, 400) - 5);
    // Only the oldest of the pet's deliveries was attempted while the receiver was down: the pet's order holds.
    expect(new Set(attempts.filter((attempt) => !attempt.delivered).map((attempt) => attempt.id))).toEqual(
      new Set([`evt_inventory_${petId}_1`]),
    );
  });

  it("delivers each pet's changes in version order while the receiver fails at random", async () => {
    receiver = await startWebhookReceiver(secret);
    let calls = 0;
    receiver.answerWith(() => ([3, 7].includes(calls++ % 10) ? 503 : 200));
    deliveries = startWebhookDeliveries({ outbox, signingKey, policy: FAST });
    const pets = [(nextPet += 1n), (nextPet += 1n), (nextPet += 1n)];

    await queue(pets.flatMap((petId) => changesOf(petId, 6)));
    await receiver.until(() => receiver.acceptedIds().size >= 18);
    await deliveries.idle();

    for (const petId of pets) {
      const accepted = receiver.received
        .filter((one) => one.status < 300 && JSON.parse(one.body).data.petId === Number(petId))
        .map((one) => JSON.parse(one.body).data.version as number);
      expect(accepted).toEqual([1, 2, 3, 4, 5, 6]);
    }
  });

  it("keeps delivering to a healthy receiver, every pet's changes in order, while another receiver never answers", async () => {
    receiver = await startWebhookReceiver(secret);
    const hanging = await startHangingReceiver();
    // An attempt to the hanging receiver ends only after a minute, far past the wait below: only its own share of attempts may wait on it.
    deliveries = startWebhookDeliveries({ outbox, signingKey, policy: { ...FAST, attemptTimeoutMs: 60_000 } });
    // More pets than attempts in flight per endpoint, so the hanging receiver has more due than its share.
    const pets = Array.from({ length: MAX_ATTEMPTS_IN_FLIGHT_PER_ENDPOINT + 8 }, () => (nextPet += 1n));
    const expected = pets.length * 3;
    try {
      await outbox.enqueue(
        [hanging.url, receiver.url],
        pets.flatMap((petId) => changesOf(petId, 3)),
        Date.now(),
      );
      deliveries.wake();

      // A bound against a hang, generous for a loaded machine, and still far below the hanging attempts' minute.
      const waited = await Promise.race([
        receiver.until(() => receiver.acceptedIds().size >= expected).then(() => 'all delivered'),
        new Promise((resolve) => setTimeout(resolve, 30_000)).then(() => `${receiver.acceptedIds().size} of ${expected} delivered in 30 s`),
      ]);

      expect(waited).toBe('all delivered');
      for (const petId of pets) {
        const versions = receiver.received
          .filter((one) => JSON.parse(one.body).data.petId === Number(petId))
          .map((one) => JSON.parse(one.body).data.version as number);
        expect(versions).toEqual([1, 2, 3]);
      }
      expect(hanging.held()).toBeGreaterThan(0);
      expect(hanging.held()).toBeLessThanOrEqual(MAX_ATTEMPTS_IN_FLIGHT_PER_ENDPOINT);
    } finally {
      // Answered, it takes what was queued for it, which leaves the outbox empty for the next test.
      hanging.answerAll();
      await deliveries.idle();
      await hanging.stop();
    }
  });

  it('dead-letters a delivery retried past its period, keeps it listed, and sends it again on redrive', async () => {
    receiver = await startWebhookReceiver(secret);
    receiver.answerWith(() => 500);
    // A token in the query, as some receivers want it: the notices name the receiver by origin and path only.
    const url = `${receiver.url}?token=s3cret`;
    const notices: string[] = [];
    deliveries = startWebhookDeliveries({
      outbox,
      signingKey,
      // Attempts at about 0, 50, 150, 350 and 750 ms, dead after the fifth: room for the first to come late on a loaded machine
      // (with 300 ms, a first attempt 250 ms after queueing was dead-lettered at once).
      policy: { ...FAST, retryForMs: 1_500 },
      onNotice: (line) => notices.push(line),
    });
    const petId = (nextPet += 1n);

    await queue(changesOf(petId, 1), url);
    await deliveries.idle();
    const dead = (await outbox.list('dead')).filter((delivery) => delivery.petId === String(petId));
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ eventId: `evt_inventory_${petId}_1`, lastFailure: 'answered 500', state: 'dead' });
    expect(dead[0]!.attempts).toBeGreaterThan(1);
    expect(notices.some((line) => line.includes(`evt_inventory_${petId}_1`) && line.includes('dead-lettered'))).toBe(true);
    expect(notices.filter((line) => line.includes(`${receiver.url} `))).toHaveLength(notices.length);
    expect(notices.join('\n')).not.toContain('s3cret');

    receiver.answerWith(() => 200);
    await outbox.redrive(Date.now(), [`evt_inventory_${petId}_1`]);
    deliveries.wake();
    await receiver.until(() => receiver.acceptedIds().has(`evt_inventory_${petId}_1`));
    await deliveries.idle();
    expect((await outbox.list('dead')).filter((delivery) => delivery.petId === String(petId))).toEqual([]);
  });

  it('picks up after a restart what the outbox still holds', async () => {
    receiver = await startWebhookReceiver(secret);
    await receiver.stop();
    deliveries = startWebhookDeliveries({ outbox, signingKey, policy: FAST });
    const petId = (nextPet += 1n);
    await queue(changesOf(petId, 2));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await deliveries.close();

    await receiver.start();
    deliveries = startWebhookDeliveries({ outbox, signingKey, policy: FAST });
    await receiver.until((received) => received.length >= 2);
    await deliveries.idle();

    expect(receiver.received.map((one) => one.headers['webhook-id'])).toEqual([1, 2].map((version) => `evt_inventory_${petId}_${version}`));
  });
});
