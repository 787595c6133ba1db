import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../../functions/domain/api-keys.ts';
import { createDocumentClient } from '../../../functions/adapters/dynamodb/document-client.ts';
import { createInventoryRepository, IMPORT_TRANSACTION_ENTRIES } from '../../../functions/adapters/dynamodb/inventory-repository.ts';
import { TOOL_KEY_IDS, toolAttribution } from '../../../functions/domain/change-attribution.ts';
import type { InventoryCount } from '../../../functions/domain/schemas.ts';
import type { ChangesPage, InventoryChange } from '../../../functions/domain/inventory-history.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { testAppStore } from '../../support/local-store.ts';
import { sendRaw } from '../../support/raw-http.ts';
import { propertyRuns } from '../../support/property-runs.ts';

/**
 * Each pet's history over HTTP against DynamoDB Local, with the stream consumer `npm start`
 * runs: every writer records one entry, a write that changes nothing records none, and the
 * versions of a pet are contiguous whatever runs at once.
 */

const KEY = 'HistoryBusinessKey000000000001';
const PETS = 40;
const appStore = testAppStore({ recordChanges: true });
let app: LocalApp;
let keyId: string;

beforeAll(async () => {
  app = await startLocalApp({
    ...appStore,
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
  etag: string | null;
}

async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    body: await response.json(),
    requestId: response.headers.get('x-request-id'),
    etag: response.headers.get('etag'),
  };
}

const adjust = (petId: number, delta: number, idempotencyKey: string = randomUUID()) =>
  send('POST', `/inventory/${petId}/adjustments`, { delta, reason: 'arrival' }, { 'Idempotency-Key': idempotencyKey });
/** As a client does: a 503 (the store busy with the other 99) is retried with the same Idempotency-Key, so it applies once. */
async function adjustUntilAnswered(petId: number, delta: number): Promise<Answer> {
  const idempotencyKey = randomUUID();
  let answer = await adjust(petId, delta, idempotencyKey);
  for (let retry = 0; answer.status === 503 && retry < 5; retry += 1) answer = await adjust(petId, delta, idempotencyKey);
  return answer;
}
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
    expect(answers[0]!.body).toEqual({ petId: 2, quantity: 11, status: 'available', reserved: 0, available: 11 });
    expect(await historyOf(2)).toEqual(before);
    expect(before.map((change) => change.kind)).toEqual(['seed', 'adjustment']);
  });
});

describe('versions under concurrency', () => {
  it('gives 100 concurrent adjustments of one pet 100 contiguous versions, each starting where the one before ended', async () => {
    const answers = await Promise.all(Array.from({ length: 100 }, () => adjustUntilAnswered(3, 1)));

    const changes = await historyOf(3, 7);

    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect(changes).toHaveLength(101);
    expectUnbrokenChain(changes);
    expect(new Set(changes.slice(1).map((change) => change.idempotencyKey)).size).toBe(100);
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
      propertyRuns({ numRuns: PETS - nextPet + 1, endOnFailure: true }),
    );
  });
});

describe('imports', () => {
  const importRun = () => toolAttribution('import', TOOL_KEY_IDS.inventoryImport);
  /** `count` pets from `first` on, all `available` with the quantity given for each. */
  const petsFrom = (first: number, count: number, quantity: (index: number) => number): InventoryCount[] =>
    Array.from({ length: count }, (_, index) => ({ petId: BigInt(first + index), quantity: quantity(index), status: 'available' }));

  it('records one entry per entry an import changes, kind import and one version up, and none for an entry it finds as written', async () => {
    // Three transactions' worth: the second import finds the odd ones as it would write them.
    const created = petsFrom(1_000, 2 * IMPORT_TRANSACTION_ENTRIES + 50, () => 5);
    const changed = created.map((item, index) => (index % 2 === 0 ? { ...item, quantity: 7 } : item));
    const [first, second] = [importRun(), importRun()];

    await app.dependencies.inventory.putMany(created, first);
    await app.dependencies.inventory.putMany(changed, second);

    for (const [index, item] of changed.entries()) {
      const changes = await historyOf(Number(item.petId));
      expectUnbrokenChain(changes);
      expect(changes).toEqual([
        expect.objectContaining({ version: 1, kind: 'import', quantityBefore: null, quantityAfter: 5, requestId: first.requestId }),
        ...(index % 2 === 0
          ? [expect.objectContaining({ version: 2, kind: 'import', quantityBefore: 5, quantityAfter: 7, requestId: second.requestId })]
          : []),
      ]);
      expect(changes.every((change) => change.keyId === TOOL_KEY_IDS.inventoryImport)).toBe(true);
    }
  });

  it("keeps a concurrent adjustment's change, before or after the import's write of the pet, each in its own version", async () => {
    const created = petsFrom(2_000, 2 * IMPORT_TRANSACTION_ENTRIES, () => 10);
    await app.dependencies.inventory.putMany(created, importRun());
    const replaced = created.map((item) => ({ ...item, quantity: 20 }));
    // Pets of the first transaction are adjusted after the import wrote them, pets of the second just before it does.
    const adjustedAfter = [2_000, 2_001, 2_002];
    const adjustedBefore = [2_000 + IMPORT_TRANSACTION_ENTRIES, 2_001 + IMPORT_TRANSACTION_ENTRIES];
    const importer = createDocumentClient({ endpoint: appStore.store.endpoint });
    let transactions = 0;
    let adjustments: Promise<Answer[]> | undefined;
    importer.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand' && ++transactions === 2) {
          adjustments = Promise.all([...adjustedAfter, ...adjustedBefore].map((petId) => adjustUntilAnswered(petId, 3)));
          const answered = await adjustments;
          expect(answered.map((answer) => answer.status)).toEqual(answered.map(() => 200));
        }
        return next(args);
      },
      { step: 'initialize', name: 'adjustBeforeTheSecondTransaction' },
    );
    const run = importRun();

    try {
      // One transaction at a time: the first is written before the second is sent.
      await createInventoryRepository(importer, appStore.tables.inventoryTable, 1).putMany(replaced, run);
    } finally {
      importer.destroy();
    }

    expect(adjustments).toBeDefined();
    const expected = [
      // The import's write of the pet, then the adjustment on top of it.
      ...adjustedAfter.map((petId) => ({ petId, kinds: ['import', 'import', 'adjustment'], quantities: [10, 20, 23] })),
      // The adjustment, then the import's write replacing its quantity: one version each, the import's starting at 13.
      ...adjustedBefore.map((petId) => ({ petId, kinds: ['import', 'adjustment', 'import'], quantities: [10, 13, 20] })),
    ];
    for (const { petId, kinds, quantities } of expected) {
      const changes = await historyOf(petId);
      expectUnbrokenChain(changes);
      expect(changes.map((change) => change.kind)).toEqual(kinds);
      expect(changes.map((change) => change.quantityAfter)).toEqual(quantities);
      expect(changes.find((change) => change.requestId === run.requestId)).toBeDefined();
      expect(await quantityOf(petId)).toBe(quantities.at(-1));
    }
  });
});

describe('versions on the wire', () => {
  it('tags every answer that returns an entry with its version, the last in its history', async () => {
    const read = await send('GET', '/inventory/5');
    const set = await patch(5, { quantity: 20 });
    const adjusted = await adjust(5, 2);
    const changes = await historyOf(5);

    expect([read.etag, set.etag, adjusted.etag]).toEqual(['"1"', '"2"', '"3"']);
    expect(changes.at(-1)!.version).toBe(3);
  });

  it('writes under If-Match only while the entry has that version: 412 PRECONDITION_FAILED and nothing written otherwise', async () => {
    const { etag } = await send('GET', '/inventory/6');

    const matched = await send('PATCH', '/inventory/6', { quantity: 30 }, { 'If-Match': etag! });
    const stale = await send('PATCH', '/inventory/6', { quantity: 31 }, { 'If-Match': etag! });
    const weak = await send('PATCH', '/inventory/6', { quantity: 31 }, { 'If-Match': `W/${matched.etag}` });
    const malformed = await send('PATCH', '/inventory/6', { quantity: 31 }, { 'If-Match': 'seven' });

    expect([matched.status, matched.etag, matched.body]).toEqual([
      200,
      '"2"',
      { petId: 6, quantity: 30, status: 'available', reserved: 0, available: 30 },
    ]);
    expect([stale.status, stale.body]).toEqual([
      412,
      {
        code: 'PRECONDITION_FAILED',
        message: 'The entry of pet 6 is at version 2 (ETag "2"), not the one If-Match names; nothing was written. Read it again and retry.',
        status: 412,
      },
    ]);
    expect([weak.status, malformed.status]).toEqual([412, 400]);
    expect(await quantityOf(6)).toBe(30);
    expect((await historyOf(6)).map((change) => change.quantityAfter)).toEqual([10, 30]);
  });

  it('takes an If-Match of up to 100 entity tags, and refuses more with 400 BAD_REQUEST, writing nothing', async () => {
    const tags = (count: number) => Array.from({ length: count }, (_, index) => `"${index + 1}"`).join(', ');

    const tooMany = await send('PATCH', '/inventory/7', { quantity: 31 }, { 'If-Match': tags(101) });
    const tooManyWithKey = await send(
      'PATCH',
      '/inventory/7',
      { quantity: 31 },
      { 'If-Match': tags(101), 'Idempotency-Key': randomUUID() },
    );
    const most = await send('PATCH', '/inventory/7', { quantity: 32 }, { 'If-Match': tags(100) });

    for (const refused of [tooMany, tooManyWithKey])
      expect([refused.status, refused.body]).toEqual([
        400,
        { code: 'BAD_REQUEST', message: 'If-Match names 101 entity tags; send at most 100.', status: 400 },
      ]);
    expect([most.status, most.etag]).toEqual([200, '"2"']);
    expect((await historyOf(7)).map((change) => change.quantityAfter)).toEqual([10, 32]);
  });

  it('reads If-Match sent on several lines, under any spelling, as one list (RFC 9110 5.3), malformed if any line is', async () => {
    const port = Number(new URL(app.baseUrl).port);
    /** A PATCH of pet 8 to `quantity` with these header lines, over raw TCP: fetch would join them into one. */
    const patchWith = async (quantity: number, ...ifMatchLines: string[]) => {
      const body = JSON.stringify({ quantity });
      const answer = await sendRaw(
        port,
        [
          'PATCH /v1/inventory/8 HTTP/1.1',
          'Host: 127.0.0.1',
          `Authorization: Bearer ${KEY}`,
          'Content-Type: application/json',
          ...ifMatchLines,
          `Content-Length: ${body.length}`,
          '',
          body,
        ].join('\r\n'),
      );
      if (typeof answer === 'string') throw new Error(`no answer: ${answer}`);
      return [answer.status, (JSON.parse(answer.body) as { code?: string }).code];
    };

    // Pet 8 is at version 1.
    const currentFirst = await patchWith(20, 'If-Match: "1"', 'If-Match: "9"');
    const currentLast = await patchWith(21, 'If-Match: "9"', 'if-match: "2"');
    const malformedFirst = await patchWith(22, 'If-Match: garbage', 'If-Match: "3"');
    const anyWithTags = await patchWith(23, 'If-Match: *', 'If-Match: "3"');
    const noneCurrent = await patchWith(24, 'If-Match: "1"', 'IF-MATCH: "2", W/"3"');

    expect([currentFirst, currentLast]).toEqual([
      [200, undefined],
      [200, undefined],
    ]);
    expect([malformedFirst, anyWithTags, noneCurrent]).toEqual([
      [400, 'BAD_REQUEST'],
      [400, 'BAD_REQUEST'],
      [412, 'PRECONDITION_FAILED'],
    ]);
    expect((await historyOf(8)).map((change) => change.quantityAfter)).toEqual([10, 20, 21]);
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

  it("refuses a cursor of another pet, and one past the pet's version, with 400 INVALID_QUERY and the Error body", async () => {
    for (const delta of [1, 2, 3, 4]) await adjust(9, delta);
    await app.history.caughtUp();
    // Pet 9 is at version 5, pet 3 at version 1 (the seed).
    const ofPet9 = ((await send('GET', '/inventory/9/changes?limit=2')).body as ChangesPage).nextCursor!;

    const answers = [
      await send('GET', `/inventory/3/changes?cursor=${ofPet9}`),
      // The cursor of a version pet 9 has not reached, in the format before issue 33 (the version alone) and in today's.
      await send('GET', `/inventory/9/changes?cursor=${Buffer.from('v1.99999').toString('base64url')}`),
      await send('GET', `/inventory/9/changes?cursor=${Buffer.from('pet9.v6').toString('base64url')}`),
    ];
    const resumed = await send('GET', `/inventory/9/changes?cursor=${ofPet9}`);

    expect(answers.map((answer) => [answer.status, answer.body])).toEqual(
      answers.map(() => [400, { code: 'INVALID_QUERY', message: 'cursor: not a cursor this operation returned.', status: 400 }]),
    );
    expect((resumed.body as ChangesPage).changes.map((change) => change.version)).toEqual([3, 4, 5]);
  });

  it('answers 404 for a pet without an entry', async () => {
    const answer = await send('GET', '/inventory/123456/changes');

    expect([answer.status, answer.body]).toEqual([
      404,
      { code: 'PET_NOT_FOUND', message: 'No inventory entry exists for pet 123456.', status: 404 },
    ]);
  });
});

describe('PATCH with an Idempotency-Key', () => {
  let nextPet = 5_001;
  /** A pet of its own per test, at quantity 10 and version 1, outside the seeded ones and the imports tests' ranges. */
  async function freshPet(): Promise<number> {
    const petId = nextPet++;
    await app.dependencies.inventory.putMany(
      [{ petId: BigInt(petId), quantity: 10, status: 'available' }],
      toolAttribution('seed', TOOL_KEY_IDS.seed),
    );
    return petId;
  }
  const keyedPatch = (petId: number, body: { quantity: number; changeFromQuantity?: number }, key: string, headers = {}) =>
    send('PATCH', `/inventory/${petId}`, body, { 'Idempotency-Key': key, ...headers });
  const replayedOf = async (petId: number, body: { quantity: number; changeFromQuantity?: number }, key: string, headers = {}) => {
    const response = await fetch(`${app.baseUrl}/inventory/${petId}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', 'Idempotency-Key': key, ...headers },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: await response.json(),
      etag: response.headers.get('etag'),
      replayed: response.headers.get('idempotent-replayed'),
    };
  };

  it('writes once and answers a retry what the first answered (body and ETag), recording one history record that carries the key', async () => {
    const petId = await freshPet();
    const key = randomUUID();

    const first = await replayedOf(petId, { quantity: 7, changeFromQuantity: 10 }, key);
    await adjust(petId, 1);
    const retry = await replayedOf(petId, { quantity: 7, changeFromQuantity: 10 }, key);
    const changes = await historyOf(petId);

    expect([first.status, first.etag, first.replayed, first.body]).toEqual([
      200,
      '"2"',
      null,
      { petId, quantity: 7, status: 'available', reserved: 0, available: 7 },
    ]);
    expect([retry.status, retry.etag, retry.replayed, retry.body]).toEqual([200, '"2"', 'true', first.body]);
    expect(await quantityOf(petId)).toBe(8);
    expect(changes.map((change) => [change.version, change.kind, change.quantityAfter, change.idempotencyKey])).toEqual([
      [1, 'seed', 10, null],
      [2, 'compareAndSet', 7, key],
      [3, 'adjustment', 8, expect.any(String)],
    ]);
  });

  it('refuses the key with another request, or one an adjustment used: 422 IDEMPOTENCY_KEY_REUSED, nothing written', async () => {
    const petId = await freshPet();
    const key = randomUUID();
    const adjustmentKey = randomUUID();
    await keyedPatch(petId, { quantity: 12 }, key);
    await adjust(petId, 1, adjustmentKey);

    const answers = [
      await keyedPatch(petId, { quantity: 13 }, key),
      await keyedPatch(petId, { quantity: 12, changeFromQuantity: 10 }, key),
      await keyedPatch(petId, { quantity: 12 }, key, { 'If-Match': '"1"' }),
      await keyedPatch(petId, { quantity: 12 }, adjustmentKey),
    ];

    expect(answers.map((answer) => [answer.status, (answer.body as { code: string }).code])).toEqual(
      answers.map(() => [422, 'IDEMPOTENCY_KEY_REUSED']),
    );
    expect(await quantityOf(petId)).toBe(13);
    expect((await historyOf(petId)).map((change) => change.quantityAfter)).toEqual([10, 12, 13]);
  });

  it('applies 20 concurrent compare-and-sets with one key once, and answers each identically', async () => {
    const petId = await freshPet();
    const key = randomUUID();

    const answers = await Promise.all(Array.from({ length: 20 }, () => replayedOf(petId, { quantity: 25, changeFromQuantity: 10 }, key)));

    expect(new Set(answers.map((answer) => JSON.stringify([answer.status, answer.etag, answer.body])))).toEqual(
      new Set([JSON.stringify([200, '"2"', { petId, quantity: 25, status: 'available', reserved: 0, available: 25 }])]),
    );
    expect(answers.filter((answer) => answer.replayed !== 'true')).toHaveLength(1);
    expect((await historyOf(petId)).map((change) => change.quantityAfter)).toEqual([10, 25]);
  });

  it('answers a compare-and-set whose answer was lost by its replay when retried with its key, where a retry without one meets its own write', async () => {
    const petId = await freshPet();
    const key = randomUUID();
    const body = JSON.stringify({ quantity: 4, changeFromQuantity: 10 });
    const { hostname: host, port } = new URL(app.baseUrl);
    // The client sends the request and drops the connection before any answer: the server applies it anyway.
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), host, () => {
        socket.end(
          `PATCH /v1/inventory/${petId} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nIdempotency-Key: ${key}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
        socket.destroy();
        resolve();
      });
      socket.once('error', reject);
    });
    const retried = await keyedPatch(petId, { quantity: 4, changeFromQuantity: 10 }, key);
    // Let the dropped request finish too, whichever of the two ran first.
    await sleep(500);
    const again = await replayedOf(petId, { quantity: 4, changeFromQuantity: 10 }, key);
    const withoutKey = await patch(petId, { quantity: 4, changeFromQuantity: 10 });

    expect([retried.status, retried.body, again.status, again.replayed, again.body]).toEqual([
      200,
      { petId, quantity: 4, status: 'available', reserved: 0, available: 4 },
      200,
      'true',
      retried.body,
    ]);
    expect([withoutKey.status, (withoutKey.body as { code: string }).code]).toEqual([409, 'QUANTITY_CHANGED']);
    expect((await historyOf(petId)).map((change) => change.quantityAfter)).toEqual([10, 4]);
  });

  it('takes If-Match with the key, and replays a refusal (404, 409, 412) even after the entry came to match', async () => {
    const petId = await freshPet();
    const [staleKey, conflictKey, missingKey, matchedKey] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];

    const stale = await keyedPatch(petId, { quantity: 3 }, staleKey, { 'If-Match': '"2"' });
    const conflict = await keyedPatch(petId, { quantity: 3, changeFromQuantity: 11 }, conflictKey);
    const missing = await keyedPatch(987_654, { quantity: 3 }, missingKey);
    const matched = await keyedPatch(petId, { quantity: 11 }, matchedKey, { 'If-Match': '"1"' });
    // The entry is now at version 2 and quantity 11: what the refused requests asked for.
    await app.dependencies.inventory.putMany(
      [{ petId: 987_654n, quantity: 1, status: 'available' }],
      toolAttribution('seed', TOOL_KEY_IDS.seed),
    );
    const replays = [
      await replayedOf(petId, { quantity: 3 }, staleKey, { 'If-Match': '"2"' }),
      await replayedOf(petId, { quantity: 3, changeFromQuantity: 11 }, conflictKey),
      await replayedOf(987_654, { quantity: 3 }, missingKey),
    ];

    expect([matched.status, matched.etag]).toEqual([200, '"2"']);
    expect(replays.map((replay) => [replay.status, replay.replayed, replay.body])).toEqual([
      [412, 'true', stale.body],
      [409, 'true', conflict.body],
      [404, 'true', missing.body],
    ]);
    expect([stale.status, conflict.status, missing.status]).toEqual([412, 409, 404]);
    expect(await quantityOf(petId)).toBe(11);
    expect((await historyOf(petId)).map((change) => change.quantityAfter)).toEqual([10, 11]);
  });
});
