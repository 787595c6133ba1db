import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventoryKey } from '../../../functions/adapters/dynamodb/stored-inventory-item.ts';
import { unheld } from '../../../functions/domain/stock-writes.ts';
import { MAX_BATCH_CHANGES } from '../../../functions/domain/vocabulary.ts';
import { routeOf } from '../../../functions/routes.ts';
import { toJson } from '../../../functions/int64-json.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { testAppStore } from '../../support/local-store.ts';

const MAX_BATCH_BODY_BYTES = routeOf('adjustInventoryBatch').maxBodyBytes;

/** POST /inventory/adjustments over HTTP against DynamoDB Local: many pets in one call, all or none, once per key. */

const KEY = 'BatchAdjustmentsBusinessKey00001';
/** Above 2^53: a double would round it to …992. */
const BIG_PET = 9_007_199_254_740_993n;
/** Pets 1–120 and BIG_PET, 100 of each; 101–120 are the concurrency test's alone. */
const PETS = [...Array.from({ length: 120 }, (_, index) => BigInt(index + 1)), BIG_PET];
const CONTENDED = PETS.slice(100, 120);
const START = 100;

const store = testAppStore();
let app: LocalApp;

beforeAll(async () => {
  app = await startLocalApp({
    ...store,
    seed: PETS.map((petId) => ({ petId, quantity: START, status: 'available' as const })),
    devApiKey: KEY,
    devPlan: 'business',
  });
});
afterAll(async () => {
  await app?.close();
});

interface Change {
  petId: bigint;
  delta: number;
  reason: 'arrival' | 'return' | 'adjustment';
}

interface Answer {
  status: number;
  text: string;
  replayed: boolean;
  requestId: string | null;
  headers: Headers;
}

/** `null` sends no Idempotency-Key. */
async function post(body: unknown, idempotencyKey: string | null = randomUUID()): Promise<Answer> {
  const response = await fetch(`${app.baseUrl}/inventory/adjustments`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${KEY}`,
      'Content-Type': 'application/json',
      ...(idempotencyKey === null ? {} : { 'Idempotency-Key': idempotencyKey }),
    },
    body: typeof body === 'string' ? body : toJson(body),
  });
  return {
    status: response.status,
    text: await response.text(),
    replayed: response.headers.get('idempotent-replayed') === 'true',
    requestId: response.headers.get('x-request-id'),
    headers: response.headers,
  };
}

const batch = (changes: Change[], idempotencyKey?: string) => post({ adjustments: changes }, idempotencyKey);
const errorOf = (answer: Answer) => JSON.parse(answer.text) as { code: string; message: string; status: number };

/** An entry as stored: its quantity, version and the attribution of its last change. */
async function stored(petId: bigint) {
  const { Item } = await app.dependencies.client.send(
    new GetCommand({ TableName: store.tables.inventoryTable, Key: inventoryKey(petId), ConsistentRead: true }),
  );
  return {
    quantity: Number(String(Item!.quantity)),
    version: Item!.version === undefined ? 0 : Number(String(Item!.version)),
    lastChange: Item!.lastChange as Record<string, unknown> | undefined,
  };
}
const storedAll = (petIds: readonly bigint[]) => Promise.all(petIds.map(stored));

describe('a batch of adjustments', () => {
  it('applies 50 changes at once and answers each entry as stored, in request order, ids exact, each change attributed to the batch', async () => {
    const petIds = [BIG_PET, ...Array.from({ length: 49 }, (_, index) => BigInt(49 - index))];
    const changes = petIds.map((petId, index): Change => ({ petId, delta: index % 4 === 3 ? -index : index + 1, reason: 'arrival' }));
    const before = await storedAll(petIds);
    const key = randomUUID();

    const answer = await batch(changes, key);

    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-api-stability')).toBe('experimental');
    expect(answer.headers.get('x-ratelimit-remaining')).not.toBeNull();
    // No reservation holds these pets: each answer carries nothing reserved and its whole quantity available.
    const expected = changes.map(({ petId, delta }, index) =>
      unheld({ petId, quantity: before[index]!.quantity + delta, status: 'available' }),
    );
    expect(answer.text).toBe(toJson({ items: expected }));
    const after = await storedAll(petIds);
    expect(after.map(({ quantity }) => quantity)).toEqual(expected.map(({ quantity }) => quantity));
    expect(after.map(({ version }, index) => version - before[index]!.version)).toEqual(petIds.map(() => 1));
    expect(after.map(({ lastChange }) => lastChange)).toEqual(
      changes.map(({ reason }) => ({
        kind: 'adjustment',
        requestId: answer.requestId,
        keyId: expect.stringMatching(/^key_/),
        reason,
        idempotencyKey: key,
        occurredAt: expect.any(String),
      })),
    );
  });

  it(`takes ${MAX_BATCH_CHANGES} changes, the most one transaction holds beside the key's record`, async () => {
    const petIds = PETS.slice(0, MAX_BATCH_CHANGES);
    const before = await storedAll(petIds);

    const answer = await batch(petIds.map((petId) => ({ petId, delta: 1, reason: 'return' })));

    expect(answer.status).toBe(200);
    expect((await storedAll(petIds)).map(({ quantity }) => quantity)).toEqual(before.map(({ quantity }) => quantity + 1));
  });

  it('replays its answer for the same key and body, applying nothing, and refuses the key for another body with 422', async () => {
    const changes: Change[] = [
      { petId: 51n, delta: 5, reason: 'arrival' },
      { petId: 52n, delta: -1, reason: 'adjustment' },
    ];
    const key = randomUUID();
    const first = await batch(changes, key);
    const afterFirst = await storedAll([51n, 52n]);

    const again = await batch(changes, key);
    const reordered = await batch([...changes].reverse(), key);
    const asSingle = await fetch(`${app.baseUrl}/inventory/51/adjustments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify({ delta: 5, reason: 'arrival' }),
    });

    expect([first.status, first.replayed, again.status, again.replayed, again.text]).toEqual([200, false, 200, true, first.text]);
    expect([reordered.status, errorOf(reordered).code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(asSingle.status).toBe(422);
    expect(await storedAll([51n, 52n])).toEqual(afterFirst);
  });

  it('changes nothing when one pet is unknown, and the 404 names every unknown pet', async () => {
    const petIds = [53n, 54n, 55n];
    const before = await storedAll(petIds);

    const answer = await batch([
      { petId: 53n, delta: 1, reason: 'arrival' },
      { petId: 404404n, delta: 1, reason: 'arrival' },
      { petId: 54n, delta: -1, reason: 'adjustment' },
      { petId: 9_223_372_036_854_775_807n, delta: 2, reason: 'return' },
      { petId: 55n, delta: 3, reason: 'arrival' },
    ]);

    expect([answer.status, errorOf(answer).code]).toEqual([404, 'PET_NOT_FOUND']);
    expect(errorOf(answer).message).toBe('No inventory entry exists for pets 404404, 9223372036854775807. Nothing was written.');
    expect(await storedAll(petIds)).toEqual(before);
  });

  it('changes nothing when one entry would go below 0, and the 409 names every pet at fault with its stock', async () => {
    const petIds = [56n, 57n, 58n];
    const before = await storedAll(petIds);

    const answer = await batch([
      { petId: 56n, delta: 2, reason: 'arrival' },
      { petId: 57n, delta: -(before[1]!.quantity + 1), reason: 'adjustment' },
      { petId: 58n, delta: 2_147_483_647, reason: 'arrival' },
    ]);

    expect([answer.status, errorOf(answer).code]).toEqual([409, 'INSUFFICIENT_STOCK']);
    expect(errorOf(answer).message).toBe(
      `2 of 3 adjustments cannot be applied. Pet 57 has ${before[1]!.quantity} in stock; a delta of ${-(before[1]!.quantity + 1)} would take it below 0. Pet 58 has ${before[2]!.quantity} in stock; a delta of 2147483647 would take it above 2147483647. Nothing was written.`,
    );
    expect(await storedAll(petIds)).toEqual(before);
  });
});

describe('the route', () => {
  it('is a resource of its own, as on API Gateway: GET /inventory/adjustments is no route, not a read of pet "adjustments"', async () => {
    const response = await fetch(`${app.baseUrl}/inventory/adjustments`, { headers: { Authorization: `Bearer ${KEY}` } });

    expect([response.status, ((await response.json()) as { code: string }).code]).toEqual([404, 'ROUTE_NOT_FOUND']);
  });
});

describe('batches under concurrency', () => {
  it('applies 15 concurrent batches over the same 20 pets once each, 5 of them sent twice at once: each pet +10', async () => {
    const petIds = CONTENDED;
    const before = await storedAll(petIds);
    // Batch b changes pet p by -2 when (b + p) % 3 is 0, else by +2: five -2 and ten +2 per pet over 15 batches, +10.
    const batches = Array.from({ length: 15 }, (_, b) => ({
      key: randomUUID(),
      // Each batch lists the pets from another starting point, so the transactions meet in different orders.
      changes: petIds.map((_, p): Change => {
        const index = (p + b) % petIds.length;
        return { petId: petIds[index]!, delta: (b + index) % 3 === 0 ? -2 : 2, reason: 'adjustment' };
      }),
    }));
    const sends = batches.flatMap((sent, b) => (b < 5 ? [sent, sent] : [sent]));

    const answers = await Promise.all(sends.map(({ changes, key }) => batch(changes, key)));

    expect(answers.map((answer) => answer.status)).toEqual(sends.map(() => 200));
    for (let b = 0; b < 5; b += 1) {
      const [one, other] = answers.filter((_, index) => sends[index] === batches[b]);
      expect(one!.text).toBe(other!.text);
      expect([one!.replayed, other!.replayed].filter((replayed) => !replayed)).toHaveLength(1);
    }
    const after = await storedAll(petIds);
    expect(after.map(({ quantity }) => quantity)).toEqual(before.map(({ quantity }) => quantity + 10));
    expect(after.map(({ version }) => version)).toEqual(before.map(({ version }) => version + 15));
  });
});

describe('a batch refused as bad input', () => {
  const one: Change = { petId: 59n, delta: 1, reason: 'arrival' };
  const entry = (fields: Record<string, unknown>) => ({ adjustments: [one, { petId: 60n, delta: 1, reason: 'arrival', ...fields }] });

  it.each([
    ['an empty list', { adjustments: [] }, 'INVALID_BODY', 'adjustments: Too small: expected array to have >=1 items'],
    [
      `${MAX_BATCH_CHANGES + 1} adjustments`,
      {
        adjustments: Array.from({ length: MAX_BATCH_CHANGES + 1 }, (_, index) => ({
          petId: BigInt(index + 1),
          delta: 1,
          reason: 'arrival',
        })),
      },
      'INVALID_BODY',
      `adjustments: Too big: expected array to have <=${MAX_BATCH_CHANGES} items`,
    ],
    [
      'a pet twice',
      { adjustments: [one, { petId: 60n, delta: 2, reason: 'arrival' }, { ...one, delta: 2 }] },
      'INVALID_BODY',
      'adjustments.2.petId: pet 59 is adjusted at adjustments.0 already; send one adjustment per pet with the sum of its deltas',
    ],
    ['a delta of 0', entry({ delta: 0 }), 'INVALID_BODY', 'adjustments.1.delta: must not be 0: an adjustment changes the stock'],
    ['a fractional delta', entry({ delta: 1.5 }), 'INVALID_BODY', 'adjustments.1.delta: Invalid input: expected int, received number'],
    [
      'an unknown reason',
      entry({ reason: 'theft' }),
      'INVALID_BODY',
      'adjustments.1.reason: Invalid option: expected one of "arrival"|"return"|"adjustment"',
    ],
    ['an unknown field', entry({ note: 'x' }), 'INVALID_BODY', 'adjustments.1: Unrecognized key: "note"'],
    ['a petId of 0', entry({ petId: 0 }), 'INVALID_BODY', 'adjustments.1.petId: Too small: expected number to be >=1'],
    ['a petId as a string', entry({ petId: '60' }), 'INVALID_BODY', 'adjustments.1.petId: Invalid input: expected number, received string'],
    [
      'a petId past int64',
      '{"adjustments":[{"petId":9223372036854775808,"delta":1,"reason":"arrival"}]}',
      'INVALID_BODY',
      'adjustments.0.petId: Invalid input: expected an integer from 1 to 9223372036854775807 written in digits',
    ],
    [
      'a petId of 2^64 + 1, past what a double tells from the bound',
      '{"adjustments":[{"petId":18446744073709551617,"delta":1,"reason":"arrival"}]}',
      'INVALID_BODY',
      'adjustments.0.petId: Invalid input: expected an integer from 1 to 9223372036854775807 written in digits',
    ],
    [
      'a petId with an exponent',
      '{"adjustments":[{"petId":6e1,"delta":1,"reason":"arrival"}]}',
      'INVALID_BODY',
      'adjustments.0.petId: Invalid input: expected an integer from 1 to 9223372036854775807 written in digits',
    ],
    ['a body that is not a batch', [one], 'INVALID_BODY', 'body: Invalid input: expected object, received array'],
    ['JSON that does not parse', '{"adjustments": [', 'MALFORMED_JSON', undefined],
  ])('%s: 400, nothing written, the key left unused', async (_, body, code, message) => {
    const before = await storedAll([59n, 60n]);
    const key = randomUUID();

    const refused = await post(body, key);

    expect([refused.status, errorOf(refused).code]).toEqual([400, code]);
    if (message !== undefined) expect(errorOf(refused).message).toBe(message);
    expect(await storedAll([59n, 60n])).toEqual(before);
    const accepted = await batch([one], key);
    expect([accepted.status, accepted.replayed]).toEqual([200, false]);
  });

  it.each([
    ['missing', null],
    ['malformed', 'has space'],
  ])('an Idempotency-Key %s: 400 IDEMPOTENCY_KEY_REQUIRED, nothing written', async (_, key) => {
    const before = await stored(59n);

    const refused = await post({ adjustments: [one] }, key);

    expect([refused.status, errorOf(refused).code]).toEqual([400, 'IDEMPOTENCY_KEY_REQUIRED']);
    expect(await stored(59n)).toEqual(before);
  });

  it(`a body above ${MAX_BATCH_BODY_BYTES} bytes: 413, nothing written`, async () => {
    const before = await stored(59n);

    const refused = await post(`{"adjustments":[${toJson(one)}]}${' '.repeat(MAX_BATCH_BODY_BYTES)}`);

    expect([refused.status, errorOf(refused).code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(await stored(59n)).toEqual(before);
  });
});
