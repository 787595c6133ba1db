import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../functions/domain/api-keys.ts';
import { TOOL_KEY_IDS, toolAttribution } from '../../functions/domain/change-attribution.ts';
import type { ChangesPage, InventoryChange } from '../../functions/domain/inventory-history.ts';
import { startLocalApp, type LocalApp } from '../../local/local-app.ts';
import { testAppStore } from '../support/local-store.ts';

/**
 * Each pet's history over HTTP against DynamoDB Local, with the stream consumer `npm start`
 * runs: every writer records one entry, a write that changes nothing records none, and the
 * versions of a pet are contiguous whatever runs at once.
 */

const KEY = 'HistoryBusinessKey000000000001';
const PETS = 40;
let app: LocalApp;
let keyId: string;

beforeAll(async () => {
  app = await startLocalApp({
    ...testAppStore(),
    seed: Array.from({ length: PETS }, (_, index) => ({ petId: BigInt(index + 1), quantity: 10, status: 'available' as const })),
    devApiKey: KEY,
    devPlan: 'business',
  });
  keyId = (await app.dependencies.apiKeys.findByHash(hashApiKey(KEY)))!.keyId;
});
afterAll(async () => {
  await app?.close();
});

interface Answer {
  status: number;
  body: unknown;
  requestId: string | null;
}

async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json(), requestId: response.headers.get('x-request-id') };
}

const adjust = (petId: number, delta: number, idempotencyKey: string = randomUUID()) =>
  send('POST', `/inventory/${petId}/adjustments`, { delta, reason: 'arrival' }, { 'Idempotency-Key': idempotencyKey });
const patch = (petId: number, body: { quantity: number; changeFromQuantity?: number }) => send('PATCH', `/inventory/${petId}`, body);

/** The pet's whole history, page by page, once the consumer has recorded every change answered so far. */
async function historyOf(petId: number, limit = 1_000): Promise<InventoryChange[]> {
  await app.history.caughtUp();
  const changes: InventoryChange[] = [];
  let cursor: string | null = null;
  do {
    const answer = await send('GET', `/inventory/${petId}/changes?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(answer.status).toBe(200);
    const page = answer.body as ChangesPage;
    changes.push(...page.changes);
    cursor = page.nextCursor;
  } while (cursor);
  return changes;
}

const quantityOf = async (petId: number) => ((await send('GET', `/inventory/${petId}`)).body as { quantity: number }).quantity;

/** Versions 1, 2, …, each change starting where the one before it ended. */
function expectUnbrokenChain(changes: InventoryChange[]): void {
  expect(changes.map((change) => change.version)).toEqual(changes.map((_change, index) => index + 1));
  changes.forEach((change, index) => {
    expect(change.quantityBefore).toBe(index === 0 ? null : changes[index - 1]!.quantityAfter);
    expect(change.delta).toBe(change.quantityAfter - (change.quantityBefore ?? 0));
  });
}

describe('every writer records one entry', () => {
  it('records the seed, a blind set, a compare-and-set, an adjustment and an import, each with who, why and the request id', async () => {
    const set = await patch(1, { quantity: 15 });
    const compareAndSet = await patch(1, { quantity: 12, changeFromQuantity: 15 });
    const adjustment = await adjust(1, 3, 'history-adjustment-1');
    const importRun = toolAttribution('import', TOOL_KEY_IDS.inventoryImport);
    await app.dependencies.inventory.putMany([{ petId: 1n, quantity: 4, status: 'pending' }], importRun);

    const changes = await historyOf(1);

    expect([set.status, compareAndSet.status, adjustment.status]).toEqual([200, 200, 200]);
    expectUnbrokenChain(changes);
    expect(changes).toEqual([
      expect.objectContaining({ version: 1, kind: 'seed', quantityBefore: null, quantityAfter: 10, delta: 10, keyId: TOOL_KEY_IDS.seed }),
      expect.objectContaining({ version: 2, kind: 'set', quantityAfter: 15, keyId, requestId: set.requestId, reason: null }),
      expect.objectContaining({ version: 3, kind: 'compareAndSet', quantityAfter: 12, keyId, requestId: compareAndSet.requestId }),
      expect.objectContaining({
        version: 4,
        kind: 'adjustment',
        quantityBefore: 12,
        quantityAfter: 15,
        delta: 3,
        reason: 'arrival',
        idempotencyKey: 'history-adjustment-1',
        keyId,
        requestId: adjustment.requestId,
      }),
      expect.objectContaining({
        version: 5,
        kind: 'import',
        quantityAfter: 4,
        status: 'pending',
        keyId: TOOL_KEY_IDS.inventoryImport,
        requestId: importRun.requestId,
      }),
    ]);
    for (const change of changes) expect(change.occurredAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('records nothing for a request that changes nothing: a set to the stored quantity, a replay, refusals', async () => {
    const idempotencyKey = randomUUID();
    const applied = await adjust(2, 1, idempotencyKey);
    const before = await historyOf(2);

    const answers = [
      await patch(2, { quantity: 11 }),
      await patch(2, { quantity: 11, changeFromQuantity: 11 }),
      await adjust(2, 1, idempotencyKey),
      await patch(2, { quantity: 5, changeFromQuantity: 9 }),
      await adjust(2, -1_000),
      await patch(999_999, { quantity: 1 }),
    ];

    expect(applied.status).toBe(200);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 409, 409, 404]);
    expect(answers[0]!.body).toEqual({ petId: 2, quantity: 11, status: 'available' });
    expect(await historyOf(2)).toEqual(before);
    expect(before.map((change) => change.kind)).toEqual(['seed', 'adjustment']);
  });
});

describe('versions under concurrency', () => {
  it('gives 100 concurrent adjustments of one pet 100 contiguous versions, each starting where the one before ended', async () => {
    const answers = await Promise.all(Array.from({ length: 100 }, () => adjust(3, 1)));

    const changes = await historyOf(3, 7);

    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(changes).toHaveLength(101);
    expectUnbrokenChain(changes);
    expect(new Set(changes.slice(1).map((change) => change.requestId))).toEqual(new Set(answers.map((answer) => answer.requestId)));
    expect(changes.at(-1)!.quantityAfter).toBe(await quantityOf(3));
  });

  it('keeps the chain unbroken and ending at the stored entry over any sequence of writes, concurrent ones included', async () => {
    const operation = fc.oneof(
      fc.record({ set: fc.integer({ min: 0, max: 30 }) }),
      fc.record({ compareFrom: fc.integer({ min: 0, max: 30 }), to: fc.integer({ min: 0, max: 30 }) }),
      fc.record({ delta: fc.integer({ min: -10, max: 10 }).filter((delta) => delta !== 0) }),
    );
    let nextPet = 10;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(operation, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }), async (rounds) => {
        const petId = nextPet++;
        // Each round's writes run at once; the rounds one after the other.
        for (const round of rounds) {
          await Promise.all(
            round.map((step) =>
              'set' in step
                ? patch(petId, { quantity: step.set })
                : 'to' in step
                  ? patch(petId, { quantity: step.to, changeFromQuantity: step.compareFrom })
                  : adjust(petId, step.delta),
            ),
          );
        }
        const changes = await historyOf(petId);
        expectUnbrokenChain(changes);
        expect(changes.at(-1)!.quantityAfter).toBe(await quantityOf(petId));
      }),
      { numRuns: PETS - nextPet + 1, endOnFailure: true },
    );
  });
});

describe('GET /inventory/{petId}/changes', () => {
  it('pages oldest first with an opaque cursor, and says when no page follows', async () => {
    await adjust(4, 1);
    await adjust(4, 2);
    await app.history.caughtUp();

    const first = await send('GET', '/inventory/4/changes?limit=2');
    const second = await send('GET', `/inventory/4/changes?limit=2&cursor=${(first.body as ChangesPage).nextCursor}`);

    expect((first.body as ChangesPage).changes.map((change) => change.version)).toEqual([1, 2]);
    expect((first.body as ChangesPage).nextCursor).toEqual(expect.any(String));
    expect(second.body).toEqual({ changes: [expect.objectContaining({ version: 3, delta: 2 })], nextCursor: null });
  });

  it.each([
    ['a limit of 0', 'limit=0'],
    ['a limit above 1000', 'limit=1001'],
    ['a limit that is not a number', 'limit=ten'],
    ['a cursor that was never returned', 'cursor=bm90LWEtY3Vyc29y'],
    ['a tampered cursor', 'cursor=djEuMQ%2F%2F'],
    ['a cursor with a negative version', `cursor=${Buffer.from('v1.-1').toString('base64url')}`],
  ])('answers 400 INVALID_QUERY for %s', async (_case, query) => {
    const answer = await send('GET', `/inventory/4/changes?${query}`);

    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'INVALID_QUERY', status: 400 });
  });

  it('answers 404 for a pet without an entry', async () => {
    const answer = await send('GET', '/inventory/123456/changes');

    expect([answer.status, answer.body]).toEqual([
      404,
      { code: 'PET_NOT_FOUND', message: 'No inventory entry exists for pet 123456.', status: 404 },
    ]);
  });
});
