import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdempotentWriteRepository } from '../../../functions/adapters/dynamodb/idempotent-write-repository.ts';
import { writeInventory } from '../../../local/seed.ts';
import { IDEMPOTENCY_WINDOW_SECONDS, IdempotentWriter } from '../../../functions/domain/idempotent-writes.ts';
import { KeyAdmin } from '../../../local/key-admin.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { startTestStore, testAppStore } from '../../support/local-store.ts';

/** Stock changes over HTTP against DynamoDB Local: many terminals changing one pet at once. */

const KEY = 'StockChangesBusinessKey0000001';
let app: LocalApp;

beforeAll(async () => {
  app = await startLocalApp({
    ...testAppStore(),
    seed: Array.from({ length: 10 }, (_, index) => ({ petId: BigInt(index + 1), quantity: 10, status: 'available' as const })),
    devApiKey: KEY,
    devPlan: 'business',
  });
});
afterAll(async () => {
  await app?.close();
});

interface Answer {
  status: number;
  text: string;
  replayed: boolean;
}

async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, apiKey = KEY): Promise<Answer> {
  const response = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text(), replayed: response.headers.get('idempotent-replayed') === 'true' };
}

const adjust = (petId: number, delta: number, idempotencyKey: string, apiKey = KEY) =>
  send('POST', `/inventory/${petId}/adjustments`, { delta, reason: 'arrival' }, { 'Idempotency-Key': idempotencyKey }, apiKey);
const quantityOf = async (petId: number) => (JSON.parse((await send('GET', `/inventory/${petId}`)).text) as { quantity: number }).quantity;

describe('adjustments under concurrency', () => {
  it('applies 100 concurrent +1 arrivals with distinct keys to one pet, each exactly once', async () => {
    const before = await quantityOf(1);

    const answers = await Promise.all(Array.from({ length: 100 }, () => adjust(1, 1, randomUUID())));

    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 100 }, () => 200));
    expect(await quantityOf(1)).toBe(before + 100);
  });

  it('applies 50 concurrent requests with one Idempotency-Key once, and answers each identically', async () => {
    const before = await quantityOf(2);
    const key = randomUUID();

    const answers = await Promise.all(Array.from({ length: 50 }, () => adjust(2, 3, key)));

    expect(await quantityOf(2)).toBe(before + 3);
    expect(new Set(answers.map((answer) => `${answer.status} ${answer.text}`))).toEqual(
      new Set([`200 {"petId":2,"quantity":${before + 3},"status":"available","reserved":0,"available":${before + 3}}`]),
    );
    expect(answers.filter((answer) => !answer.replayed)).toHaveLength(1);
  });

  it("lets exactly one of 20 concurrent compare-and-sets from the same quantity win, and keeps the winner's value", async () => {
    const from = await quantityOf(3);

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => send('PATCH', '/inventory/3', { quantity: 100 + index, changeFromQuantity: from })),
    );

    const winners = answers.filter((answer) => answer.status === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409).every((answer) => answer.text.includes('"code":"QUANTITY_CHANGED"'))).toBe(
      true,
    );
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(19);
    expect(await quantityOf(3)).toBe((JSON.parse(winners[0]!.text) as { quantity: number }).quantity);
  });

  it('loses no acknowledged increment when read-then-compare-and-set workers race adjustments of the same pet', async () => {
    const before = await quantityOf(5);
    let acknowledged = 0;
    // Each worker reads, adds one and writes back with changeFromQuantity, until its write is accepted.
    const compareAndSetWorker = async () => {
      for (let attempt = 0; attempt < 200; attempt += 1) {
        const read = await quantityOf(5);
        const answer = await send('PATCH', '/inventory/5', { quantity: read + 1, changeFromQuantity: read });
        if (answer.status === 200) return void (acknowledged += 1);
        expect(answer.text).toContain('"code":"QUANTITY_CHANGED"');
      }
    };
    const adjustmentWorker = async () => {
      const answer = await adjust(5, 1, randomUUID());
      if (answer.status === 200) acknowledged += 1;
    };

    await Promise.all([...Array.from({ length: 20 }, compareAndSetWorker), ...Array.from({ length: 20 }, adjustmentWorker)]);

    expect(acknowledged).toBe(40);
    expect(await quantityOf(5)).toBe(before + acknowledged);
  });

  it('refuses a compare-and-set whose new quantity another writer already stored: that change would be absorbed unseen', async () => {
    const read = await quantityOf(6);
    expect((await adjust(6, 1, randomUUID())).status).toBe(200);

    const answer = await send('PATCH', '/inventory/6', { quantity: read + 1, changeFromQuantity: read });

    expect(answer.status).toBe(409);
    expect(answer.text).toContain(`The stored quantity of pet 6 is ${read + 1}, not changeFromQuantity ${read}`);
  });

  it('applies an adjustment whose answer was lost once, when the client retries it with the same key', async () => {
    const before = await quantityOf(4);
    const key = randomUUID();
    const body = JSON.stringify({ delta: 5, reason: 'arrival' });
    const { hostname: host, port } = new URL(app.baseUrl);
    // The client sends the request and drops the connection before any answer: the server applies it anyway.
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), host, () => {
        socket.end(
          `POST /v1/inventory/4/adjustments HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nIdempotency-Key: ${key}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
        socket.destroy();
        resolve();
      });
      socket.once('error', reject);
    });
    const retried = await adjust(4, 5, key);
    // Let the dropped request finish too, whichever of the two ran first.
    await sleep(500);
    const again = await adjust(4, 5, key);

    expect([retried.status, again.status, again.replayed, again.text]).toEqual([200, 200, true, retried.text]);
    expect(await quantityOf(4)).toBe(before + 5);
  });
});

describe('what an Idempotency-Key remembers', () => {
  it('keeps the keys of one API key invisible to another', async () => {
    const { apiKey: otherKey } = await new KeyAdmin(app.dependencies.apiKeys, app.dependencies.usageCounters).issue({
      plan: 'business',
      owner: 'another client',
    });
    const before = await quantityOf(5);
    const key = randomUUID();

    const first = await adjust(5, 1, key);
    const other = await adjust(5, 1, key, otherKey);

    expect([first.replayed, other.replayed]).toEqual([false, false]);
    expect(await quantityOf(5)).toBe(before + 2);
  });

  it('changes nothing and remembers nothing for a request refused as bad input', async () => {
    const before = await quantityOf(6);
    const key = randomUUID();

    const refused = await Promise.all([
      send('POST', '/inventory/6/adjustments', { delta: 1 }, { 'Idempotency-Key': key }),
      send('POST', '/inventory/6/adjustments', { delta: 1.5, reason: 'arrival' }, { 'Idempotency-Key': key }),
      send('POST', '/inventory/6/adjustments', { delta: '1', reason: 'arrival' }, { 'Idempotency-Key': key }),
      send('POST', '/inventory/6/adjustments', { delta: 1, reason: 'arrival', note: 'x' }, { 'Idempotency-Key': key }),
      send('POST', '/inventory/6/adjustments', { delta: 1, reason: 'arrival' }, { 'Idempotency-Key': 'has space' }),
      send('POST', '/inventory/6/adjustments', { delta: 1, reason: 'arrival' }, { 'Idempotency-Key': 'k'.repeat(256) }),
      send('PATCH', '/inventory/6', { quantity: 1, changeFromQuantity: -1 }),
      send('PATCH', '/inventory/6', { quantity: 1, changeFromQuantity: '10' }),
    ]);
    const accepted = await adjust(6, 1, key);

    expect(refused.map((answer) => [answer.status, (JSON.parse(answer.text) as { code: string }).code])).toEqual([
      ...Array.from({ length: 4 }, () => [400, 'INVALID_BODY']),
      [400, 'IDEMPOTENCY_KEY_REQUIRED'],
      [400, 'IDEMPOTENCY_KEY_REQUIRED'],
      [400, 'INVALID_BODY'],
      [400, 'INVALID_BODY'],
    ]);
    expect([accepted.status, accepted.replayed]).toEqual([200, false]);
    expect(await quantityOf(6)).toBe(before + 1);
  });

  it.each([
    ['the quoted form first', (key: string) => [`"${key}"`, key]],
    ['the bare form first', (key: string) => [key, `"${key}"`]],
    ['an escaped quote and backslash', (key: string) => [`"${key}\\"a\\\\b"`, `${key}"a\\b`]],
  ] as const)(
    'reads the quoted (structured-field string) and bare Idempotency-Key as one key, %s: the second replays',
    async (_, forms) => {
      const before = await quantityOf(8);
      const [first, second] = forms(randomUUID());

      const applied = await adjust(8, 2, first!);
      const replayed = await adjust(8, 2, second!);

      expect([applied.status, applied.replayed, replayed.status, replayed.replayed]).toEqual([200, false, 200, true]);
      expect(replayed.text).toBe(applied.text);
      expect(await quantityOf(8)).toBe(before + 2);
    },
  );

  it('refuses an Idempotency-Key that is neither a bare key nor a structured-field string of one, writing nothing', async () => {
    const before = await quantityOf(9);
    const malformed = ['"unterminated', '""', '"has space"', '"key";p=1', `"${'k'.repeat(256)}"`, '"a"b"', '"back\\slash"'];

    const answers = await Promise.all(malformed.map((key) => adjust(9, 1, key)));

    expect(answers.map((answer) => [answer.status, (JSON.parse(answer.text) as { code: string }).code])).toEqual(
      malformed.map(() => [400, 'IDEMPOTENCY_KEY_REQUIRED']),
    );
    expect(await quantityOf(9)).toBe(before);
  });

  it('replays a refusal even after the stock has changed', async () => {
    const key = randomUUID();
    const refused = await send('POST', '/inventory/7/adjustments', { delta: -50, reason: 'adjustment' }, { 'Idempotency-Key': key });
    await send('PATCH', '/inventory/7', { quantity: 100 });

    const replayed = await send('POST', '/inventory/7/adjustments', { delta: -50, reason: 'adjustment' }, { 'Idempotency-Key': key });

    expect([refused.status, replayed.status, replayed.replayed, replayed.text]).toEqual([409, 409, true, refused.text]);
    expect(await quantityOf(7)).toBe(100);
  });
});

describe('the idempotentWriter on DynamoDB Local, with a controlled clock', () => {
  it('treats a record past its expiry as gone, although the store has not deleted it', async () => {
    const store = await startTestStore();
    try {
      await writeInventory(store.dependencies.client, store.tables.inventoryTable, [{ petId: 1n, quantity: 0, status: 'available' }]);
      let now = Date.UTC(2026, 10, 22, 12);
      const idempotentWriter = new IdempotentWriter(createIdempotentWriteRepository(store.dependencies.client, store.tables), () => now);
      const request = { keyId: 'key_a', requestId: 'request-1', idempotencyKey: 'k1', petId: 1n, delta: 2, reason: 'arrival' as const };

      const first = await idempotentWriter.adjust(request);
      now += (IDEMPOTENCY_WINDOW_SECONDS - 1) * 1000;
      const withinTheWindow = await idempotentWriter.adjust(request);
      now += 2_000;
      const afterIt = await idempotentWriter.adjust(request);

      expect([first.replayed, withinTheWindow.replayed, afterIt.replayed]).toEqual([false, true, false]);
      expect(afterIt.outcome).toEqual({ item: { petId: 1n, quantity: 4, status: 'available', reserved: 0, available: 4 }, version: 3 });
    } finally {
      await store.close();
    }
  });

  it('answers a change that was applied but whose first request died before answering, without applying it again', async () => {
    const store = await startTestStore();
    try {
      await writeInventory(store.dependencies.client, store.tables.inventoryTable, [{ petId: 9n, quantity: 1, status: 'pending' }]);
      const repository = createIdempotentWriteRepository(store.dependencies.client, store.tables);
      const request = { keyId: 'key_a', requestId: 'request-1', idempotencyKey: 'died', petId: 9n, delta: 4, reason: 'return' as const };
      // The process dies after its transaction and before it records the answer.
      const dying = new IdempotentWriter({ ...repository, recordAnswer: () => Promise.reject(new Error('the process died')) });
      await expect(dying.adjust(request)).rejects.toThrow('the process died');
      const idempotentWriter = new IdempotentWriter(repository);

      const retried = await idempotentWriter.adjust(request);

      expect(retried).toEqual({
        outcome: { item: { petId: 9n, quantity: 5, status: 'pending', reserved: 0, available: 5 }, version: 2 },
        replayed: true,
      });
      expect(await repository.findEntries([9n])).toEqual([
        { item: { petId: 9n, quantity: 5, status: 'pending', reserved: 0, available: 5 }, version: 2, holds: [] },
      ]);
    } finally {
      await store.close();
    }
  });
});
