import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReservationRepository } from '../../../functions/adapters/dynamodb/reservation-repository.ts';
import { ReservationExpiry, Reservations } from '../../../functions/domain/reservations.ts';
import { commitReservation } from '../../../functions/operations/commit-reservation.ts';
import { releaseReservation } from '../../../functions/operations/release-reservation.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { lambdaContext, proxyEvent } from '../../support/events.ts';
import { TEST_AUTHOR, testAttribution } from '../../support/inventory.ts';
import { startTestStore, testAppStore, type TestStore } from '../../support/local-store.ts';

/**
 * Reservations over HTTP against DynamoDB Local, with the sweep switched off: every expiry these
 * tests see is exact at expiresAt by itself, or recorded by the write it stood in the way of.
 */

const KEY = 'ReservationsBusinessKey0000001';
let app: LocalApp;

/** Pets 1..30, each with 20 in stock. */
const PETS = 30;
const STOCK = 20;

beforeAll(async () => {
  app = await startLocalApp({
    ...testAppStore({ recordChanges: true }),
    seed: Array.from({ length: PETS }, (_, index) => ({ petId: BigInt(index + 1), quantity: STOCK, status: 'available' as const })),
    devApiKey: KEY,
    devPlan: 'business',
    reservationSweepMs: false,
  });
});
afterAll(async () => {
  await app?.close();
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
  /** The body as sent: a replay is the first answer byte for byte. */
  text: string;
  headers: Headers;
}

async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, text, headers: response.headers };
}

interface Cart {
  items: { petId: number; quantity: number }[];
  ttlSeconds?: number;
  reference?: string;
}
const reserve = (cart: Cart, key: string = randomUUID()) => send('POST', '/inventory/reservations', cart, { 'Idempotency-Key': key });
const commit = (id: string) => send('POST', `/inventory/reservations/${id}/commit`);
const release = (id: string) => send('DELETE', `/inventory/reservations/${id}`);
const entry = async (petId: number) =>
  (await send('GET', `/inventory/${petId}`)).body as { quantity: number; reserved: number; available: number };
const adjust = (petId: number, delta: number) =>
  send(
    'POST',
    `/inventory/${petId}/adjustments`,
    { delta, reason: delta > 0 ? 'arrival' : 'adjustment' },
    { 'Idempotency-Key': randomUUID() },
  );

describe('reserving', () => {
  it('gives exactly 20 of 60 concurrent reservations of 1 against 20 available, and refuses the rest with what is available', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, () => reserve({ items: [{ petId: 1, quantity: 1 }] })));

    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(20);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused).toHaveLength(40);
    expect(refused.every((answer) => answer.status === 409 && answer.body.code === 'INSUFFICIENT_STOCK')).toBe(true);
    expect(refused[0]!.body.message).toContain('Pet 1 has 0 available');
    expect(await entry(1)).toEqual({ petId: 1, quantity: 20, status: 'available', reserved: 20, available: 0 });
  });

  it('answers 201 with the reservation and its Location, and a replay answers the same and holds nothing more', async () => {
    const key = randomUUID();
    const cart = {
      items: [
        { petId: 2, quantity: 3 },
        { petId: 3, quantity: 1 },
      ],
      ttlSeconds: 600,
      reference: 'cart-42',
    };

    const first = await reserve(cart, key);
    const again = await reserve(cart, key);

    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ status: 'active', reference: 'cart-42', items: cart.items, settledAt: null });
    expect(first.headers.get('location')).toBe(`/v1/inventory/reservations/${first.body.reservationId}`);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await entry(2)).toMatchObject({ quantity: 20, reserved: 3, available: 17 });
    expect((await send('GET', `/inventory/reservations/${first.body.reservationId}`)).text).toBe(first.text);
    expect((await reserve({ ...cart, reference: 'cart-43' }, key)).status).toBe(422);
  });

  it('holds nothing for a cart with one short pet, and names that pet and what it has', async () => {
    const answer = await reserve({
      items: [
        { petId: 4, quantity: 2 },
        { petId: 5, quantity: 21 },
        { petId: 6, quantity: 1 },
      ],
    });

    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'INSUFFICIENT_STOCK', status: 409 });
    expect(answer.body.message).toContain('Pet 5 has 20 available');
    for (const petId of [4, 5, 6]) expect(await entry(petId)).toMatchObject({ reserved: 0, available: 20 });
  });

  it('answers 404 for an unknown pet and 400 for a malformed cart, holding nothing', async () => {
    expect((await reserve({ items: [{ petId: 999_999, quantity: 1 }] })).body).toMatchObject({ code: 'PET_NOT_FOUND', status: 404 });
    for (const cart of [
      { items: [] },
      { items: [{ petId: 7, quantity: 0 }] },
      {
        items: [
          { petId: 7, quantity: 1 },
          { petId: 7, quantity: 1 },
        ],
      },
      { items: [{ petId: 7, quantity: 1 }], ttlSeconds: 0 },
      { items: [{ petId: 7, quantity: 1 }], ttlSeconds: 604_801 },
    ])
      expect((await reserve(cart as Cart)).status).toBe(400);
    expect((await send('POST', '/inventory/reservations', { items: [{ petId: 7, quantity: 1 }] })).body).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REQUIRED',
    });
    expect(await entry(7)).toMatchObject({ reserved: 0, available: 20 });
    expect((await send('GET', `/inventory/reservations/${randomUUID()}`)).body).toMatchObject({
      code: 'RESERVATION_NOT_FOUND',
      status: 404,
    });
    expect((await send('GET', '/inventory/reservations/not-an-id')).status).toBe(404);
  });

  it('counts a reference in characters, 200 at most, and refuses one that is not Unicode text, holding nothing', async () => {
    const emoji = '\u{1F436}';
    const longest = await reserve({ items: [{ petId: 28, quantity: 1 }], reference: emoji.repeat(200) });
    expect([longest.status, longest.body.reference]).toEqual([201, emoji.repeat(200)]);

    const tooLong = await reserve({ items: [{ petId: 28, quantity: 1 }], reference: emoji.repeat(201) });
    expect(tooLong.body).toEqual({
      code: 'INVALID_BODY',
      message: 'reference: Too big: expected string to have <=200 characters',
      status: 400,
    });
    const halfAPair = await fetch(`${app.baseUrl}/inventory/reservations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
      body: '{"items":[{"petId":28,"quantity":1}],"reference":"cart-\\ud800"}',
    });
    expect(await halfAPair.json()).toEqual({
      code: 'INVALID_BODY',
      message:
        'reference: is not Unicode text: it holds half of a UTF-16 surrogate pair (an escape from \\ud800 to \\udfff) without the other half',
      status: 400,
    });
    expect(await entry(28)).toMatchObject({ reserved: 1, available: 19 });
  });
});

describe('settling', () => {
  it('commits once under retries: stock and hold go down together, and again answers the same', async () => {
    const { body } = await reserve({ items: [{ petId: 8, quantity: 5 }] });
    const id = body.reservationId as string;

    const answers = await Promise.all(Array.from({ length: 5 }, () => commit(id)));

    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[0]!.body).toMatchObject({
      reservation: { status: 'committed' },
      items: [{ petId: 8, quantity: 15, reserved: 0, available: 15 }],
    });
    expect(await entry(8)).toMatchObject({ quantity: 15, reserved: 0, available: 15 });
    expect((await release(id)).body).toMatchObject({ code: 'RESERVATION_COMMITTED', status: 409 });
  });

  it('releases once under retries, and a released reservation cannot be committed', async () => {
    const { body } = await reserve({ items: [{ petId: 9, quantity: 5 }] });
    const id = body.reservationId as string;

    const answers = await Promise.all(Array.from({ length: 5 }, () => release(id)));

    expect(answers.every((answer) => answer.status === 200 && answer.body.status === 'released')).toBe(true);
    expect(await entry(9)).toMatchObject({ quantity: 20, reserved: 0, available: 20 });
    expect((await commit(id)).body).toMatchObject({ code: 'RESERVATION_RELEASED', status: 409 });
  });

  it('leaves exact figures when commits, releases and arrivals race on one pet', async () => {
    const carts = await Promise.all(Array.from({ length: 10 }, () => reserve({ items: [{ petId: 10, quantity: 2 }] })));
    const ids = carts.map((cart) => cart.body.reservationId as string);

    const answers = await Promise.all([
      ...ids.slice(0, 5).map((id) => commit(id)),
      ...ids.slice(5).map((id) => release(id)),
      ...Array.from({ length: 10 }, () => adjust(10, 1)),
    ]);

    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    // 20 + 10 arrivals - 5 commits of 2; nothing held.
    expect(await entry(10)).toMatchObject({ quantity: 20, reserved: 0, available: 20 });
  });

  it('lets a removal take only what no reservation holds', async () => {
    await reserve({ items: [{ petId: 11, quantity: 15 }] });

    const refused = await adjust(11, -6);

    expect(refused.body).toMatchObject({ code: 'INSUFFICIENT_STOCK', status: 409 });
    expect(refused.body.message).toContain('20 in stock, 15 reserved, 5 available');
    expect((await adjust(11, -5)).status).toBe(200);
    expect(await entry(11)).toMatchObject({ quantity: 15, reserved: 15, available: 0 });
  });

  it('sets a count below what is held: available answers 0, the reservations stay, a commit that would sell missing stock is refused', async () => {
    const { body } = await reserve({ items: [{ petId: 12, quantity: 10 }] });
    const id = body.reservationId as string;

    const patched = await send('PATCH', '/inventory/12', { quantity: 4 });

    expect(patched.body).toMatchObject({ quantity: 4, reserved: 10, available: 0 });
    expect((await commit(id)).body).toMatchObject({ code: 'INSUFFICIENT_STOCK', status: 409 });
    expect((await send('GET', `/inventory/reservations/${id}`)).body).toMatchObject({ status: 'active' });
    expect((await send('PATCH', '/inventory/12', { quantity: 12 })).body).toMatchObject({ reserved: 10, available: 2 });
    expect((await commit(id)).status).toBe(200);
    expect(await entry(12)).toMatchObject({ quantity: 2, reserved: 0, available: 2 });
  });
});

describe('expiry', () => {
  it('stops a 2 s reservation holding at its expiresAt, before any cleanup: a reservation of all the stock succeeds 1 s later', async () => {
    const { body } = await reserve({ items: [{ petId: 13, quantity: 20 }], ttlSeconds: 2 });
    const expiresAt = Date.parse(body.expiresAt as string);
    expect(await entry(13)).toMatchObject({ reserved: 20, available: 0 });

    await sleep(Math.max(0, expiresAt + 1_000 - Date.now()));

    expect(await entry(13)).toMatchObject({ quantity: 20, reserved: 0, available: 20 });
    expect((await send('GET', `/inventory/reservations/${body.reservationId}`)).body).toMatchObject({ status: 'expired' });
    expect((await commit(body.reservationId as string)).body).toMatchObject({ code: 'RESERVATION_EXPIRED', status: 409 });
    expect((await reserve({ items: [{ petId: 13, quantity: 20 }] })).status).toBe(201);
    expect(await entry(13)).toMatchObject({ reserved: 20, available: 0 });
  });

  it('lets a removal take stock an expired hold still counts, recording the expiry first', async () => {
    await reserve({ items: [{ petId: 14, quantity: 20 }], ttlSeconds: 1 });
    await sleep(1_100);

    expect((await adjust(14, -20)).body).toMatchObject({ quantity: 0, reserved: 0, available: 0 });
  });
});

describe('history', () => {
  it('makes each reserve, commit, release and expiry one change of each pet, versions contiguous', async () => {
    const committed = await reserve({ items: [{ petId: 15, quantity: 2 }], reference: 'order-7' });
    await commit(committed.body.reservationId as string);
    const released = await reserve({ items: [{ petId: 15, quantity: 3 }] });
    await release(released.body.reservationId as string);
    const expired = await reserve({ items: [{ petId: 15, quantity: 4 }], ttlSeconds: 1 });
    await sleep(1_100);
    await app.dependencies.reservationExpiry.sweep();
    await app.history.caughtUp();

    const { changes } = (await send('GET', '/inventory/15/changes')).body as { changes: Record<string, unknown>[] };

    expect(changes.map((change) => change.version)).toEqual(changes.map((_, index) => index + 1));
    expect(
      changes.slice(1).map(({ kind, quantityAfter, reservedBefore, reservedAfter, reservationId, reference }) => ({
        kind,
        quantityAfter,
        reservedBefore,
        reservedAfter,
        reservationId,
        reference,
      })),
    ).toEqual([
      {
        kind: 'reserve',
        quantityAfter: 20,
        reservedBefore: 0,
        reservedAfter: 2,
        reservationId: committed.body.reservationId,
        reference: 'order-7',
      },
      {
        kind: 'commit',
        quantityAfter: 18,
        reservedBefore: 2,
        reservedAfter: 0,
        reservationId: committed.body.reservationId,
        reference: 'order-7',
      },
      {
        kind: 'reserve',
        quantityAfter: 18,
        reservedBefore: 0,
        reservedAfter: 3,
        reservationId: released.body.reservationId,
        reference: null,
      },
      {
        kind: 'release',
        quantityAfter: 18,
        reservedBefore: 3,
        reservedAfter: 0,
        reservationId: released.body.reservationId,
        reference: null,
      },
      {
        kind: 'reserve',
        quantityAfter: 18,
        reservedBefore: 0,
        reservedAfter: 4,
        reservationId: expired.body.reservationId,
        reference: null,
      },
      {
        kind: 'expire',
        quantityAfter: 18,
        reservedBefore: 4,
        reservedAfter: 0,
        reservationId: expired.body.reservationId,
        reference: null,
      },
    ]);
    expect((await send('GET', `/inventory/reservations/${expired.body.reservationId}`)).body).toMatchObject({ status: 'expired' });
  });
});

describe('settling under contention, within the function time', () => {
  /**
   * DynamoDB answers TransactionConflict while another transaction holds one of a transaction's
   * items; DynamoDB Local serializes transactions instead and never does. So the settling
   * transactions here meet a conflict as a hot pet's would on AWS: most of them are refused
   * with one, the rest written to DynamoDB Local. Each request has 2.7 s of function time: its
   * rounds stop 2 s before the end (ROUNDS_RESERVE_MS), and Middy answers 503 0.5 s before it.
   */
  const CONFLICTS = 0.85;
  const FUNCTION_TIME_MS = 2_700;
  const RESERVATIONS = 60;
  const CALLER = { keyId: 'key_contention', plan: 'business', perMinute: 100_000, perDay: 1_000_000 };

  let store: TestStore;
  beforeAll(async () => {
    store = await startTestStore();
  });
  afterAll(async () => store?.close());

  it('answers 200 as asked, or 503 for a reservation still active; no round runs after the answer', async () => {
    const { dependencies } = store;
    await dependencies.inventory.putMany([{ petId: 1n, quantity: RESERVATIONS, status: 'available' }], testAttribution('seed'));
    const ids = await Promise.all(
      Array.from({ length: RESERVATIONS }, async () => {
        const { outcome } = await dependencies.idempotentWriter.reserve({
          ...TEST_AUTHOR,
          idempotencyKey: randomUUID(),
          request: { items: [{ petId: 1n, quantity: 1 }], ttlSeconds: 3_600 },
        });
        if (!('reservation' in outcome)) throw new Error(`not reserved: ${outcome.error.message}`);
        return outcome.reservation.reservationId;
      }),
    );
    const real = createReservationRepository(dependencies.client, store.tables);
    const answered = new Set<string>();
    const roundsAfterTheAnswer: string[] = [];
    const reservations = new Reservations(
      {
        ...real,
        settle: (settling) => {
          if (answered.has(settling.reservationId)) roundsAfterTheAnswer.push(settling.reservationId);
          return Math.random() < CONFLICTS ? Promise.resolve({ conflict: true }) : real.settle(settling);
        },
      },
      new ReservationExpiry(real),
    );
    const handlers = {
      committed: commitReservation.handler({ reservations, limiter: dependencies.limiter }),
      released: releaseReservation.handler({ reservations, limiter: dependencies.limiter }),
    };

    const answers = await Promise.all(
      ids.map(async (reservationId, index) => {
        const asked = index % 2 === 0 ? 'committed' : 'released';
        const endsAt = Date.now() + FUNCTION_TIME_MS;
        const event = proxyEvent({
          httpMethod: asked === 'committed' ? 'POST' : 'DELETE',
          resource: `/inventory/reservations/{reservationId}${asked === 'committed' ? '/commit' : ''}`,
          path: `/inventory/reservations/${reservationId}${asked === 'committed' ? '/commit' : ''}`,
          pathParameters: { reservationId },
          caller: CALLER,
        });
        const context = { ...lambdaContext, getRemainingTimeInMillis: () => Math.max(0, endsAt - Date.now()) };
        const answer = await handlers[asked](event, context);
        answered.add(reservationId);
        return { reservationId, asked, answer };
      }),
    );
    // A round that ran on after its answer would start within one backoff (at most 200 ms) of it.
    await sleep(500);

    const statuses = answers.map(({ answer }) => answer.statusCode);
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(statuses).toContain(200);
    expect(statuses).toContain(503);
    expect(roundsAfterTheAnswer).toEqual([]);
    for (const { reservationId, asked, answer } of answers) {
      const now = (await reservations.get(reservationId)).status;
      if (answer.statusCode === 200) {
        const body = JSON.parse(answer.body) as { status?: string; reservation?: { status: string } };
        expect({ reservationId, answered: body.reservation?.status ?? body.status, now }).toEqual({
          reservationId,
          answered: asked,
          now: asked,
        });
      } else {
        expect({
          reservationId,
          now,
          retryAfter: answer.headers?.['Retry-After'],
          message: (JSON.parse(answer.body) as { message: string }).message,
        }).toEqual({
          reservationId,
          now: 'active',
          retryAfter: '1',
          message: `The settling of reservation ${reservationId} met other writes of the same stock until the request's time ran out. Nothing was written: send it again after the time in Retry-After.`,
        });
      }
    }
  });
});
