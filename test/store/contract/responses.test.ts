import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { feedCursorAfter } from '../../../functions/domain/change-feed.ts';
import { StoreUnavailableError } from '../../../functions/domain/errors.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { KeyAdmin } from '../../../local/key-admin.ts';
import { failingListing } from '../../support/inventory.ts';
import { testAppStore } from '../../support/local-store.ts';
import { DEMO_INVENTORY } from '../../../contract/demo-inventory.ts';
import { withSharedResponses } from '../../../contract/openapi-document.ts';
import { NO_SUCH_PATH_MESSAGE } from '../../../functions/http/gateway-responses.ts';
import { ContractValidator, OPENAPI_FILE, type ObservedResponse } from '../../fast/contract/contract-validator.ts';
import { insideOneMinute } from '../../support/minute-window.ts';

/**
 * Every answer the local server gives in this file goes through ContractValidator: status,
 * headers and body against openapi.json. The last test checks that every answer the document
 * lists was provoked at least once, so a newly documented status needs a test here.
 */

const BUSINESS_KEY = 'ContractBusinessKey000000000001';
const FREE_KEY = 'ContractFreeKey00000000000000001';
const BIG_ID = '9007199254740993';

let contract: ContractValidator;
let app: LocalApp;

interface Call {
  body?: string;
  contentType?: string;
  /** null sends no Authorization header. */
  apiKey?: string | null;
  /** Sent on adjustments; a new one per call unless given (null sends none). */
  idempotencyKey?: string | null;
  headers?: Record<string, string>;
}

async function call(
  target: LocalApp,
  method: string,
  path: string,
  { body, contentType, apiKey = BUSINESS_KEY, idempotencyKey, headers: extra = {} }: Call = {},
): Promise<ObservedResponse> {
  const headers: Record<string, string> = { ...extra };
  if (apiKey !== null) headers.Authorization = `Bearer ${apiKey}`;
  if (contentType) headers['Content-Type'] = contentType;
  if ((path.endsWith('/adjustments') || path === '/inventory/reservations') && idempotencyKey !== null)
    headers['Idempotency-Key'] = idempotencyKey ?? randomUUID();
  const url = new URL(`${target.baseUrl}${path}`);
  return contract.checkFetched(method, url, await fetch(url, { method, headers, body: body ?? null }));
}

const json = { contentType: 'application/json' };
const codeOf = (response: ObservedResponse) => (JSON.parse(response.text) as { code: string }).code;

beforeAll(async () => {
  contract = await ContractValidator.load();
  app = await startLocalApp({
    ...testAppStore({ recordChanges: true }),
    seed: DEMO_INVENTORY,
    devApiKey: BUSINESS_KEY,
    devPlan: 'business',
  });
});

afterAll(async () => {
  await app?.close();
});

describe('listInventory', () => {
  it('200: every entry, petIds above 2^53 written exactly', async () => {
    const response = await call(app, 'GET', '/inventory');
    expect(response.status).toBe(200);
    expect(response.text).toContain(`"petId":${BIG_ID}`);
  });

  it('200, compressed as asked: the same entries, with Content-Encoding and Vary', async () => {
    for (const encoding of ['gzip', 'br', 'identity']) {
      const url = new URL(`${app.baseUrl}/inventory`);
      const response = await contract.checkFetched(
        'GET',
        url,
        await fetch(url, { headers: { Authorization: `Bearer ${BUSINESS_KEY}`, 'Accept-Encoding': encoding } }),
      );
      expect([response.status, response.headers.get('content-encoding'), response.headers.get('vary')]).toEqual([
        200,
        encoding === 'identity' ? null : encoding,
        'Accept-Encoding',
      ]);
      expect(response.text).toContain(`"petId":${BIG_ID}`);
    }
  });
});

describe('updateInventory', () => {
  it('200: the entry with its new quantity, an int64 id kept exact', async () => {
    const response = await call(app, 'PATCH', `/inventory/${BIG_ID}`, { ...json, body: '{"quantity":2147483647}' });
    expect(response.status).toBe(200);
    expect(response.text).toBe(`{"petId":${BIG_ID},"quantity":2147483647,"status":"available","reserved":0,"available":2147483647}`);
    expect(response.headers.get('x-api-stability')).toBe('experimental');
  });

  it.each([
    ['a missing quantity', '1', '{}', 'INVALID_BODY'],
    ['a negative quantity', '1', '{"quantity":-1}', 'INVALID_BODY'],
    ['a quantity above int32', '1', '{"quantity":2147483648}', 'INVALID_BODY'],
    ['an unknown field', '1', '{"quantity":1,"status":"sold"}', 'INVALID_BODY'],
    ['malformed JSON', '1', '{"quantity":', 'MALFORMED_JSON'],
    ['a petId that is not a number', 'abc', '{"quantity":1}', 'INVALID_PET_ID'],
    ['a petId above int64', '9223372036854775808', '{"quantity":1}', 'INVALID_PET_ID'],
  ])('400 for %s', async (_case, petId, body, code) => {
    const response = await call(app, 'PATCH', `/inventory/${petId}`, { ...json, body });
    expect([response.status, codeOf(response)]).toEqual([400, code]);
  });

  it('404 PET_NOT_FOUND for a pet without an entry', async () => {
    const response = await call(app, 'PATCH', '/inventory/424242', { ...json, body: '{"quantity":1}' });
    expect([response.status, codeOf(response)]).toEqual([404, 'PET_NOT_FOUND']);
  });

  it('413 PAYLOAD_TOO_LARGE above 4 KiB', async () => {
    const response = await call(app, 'PATCH', '/inventory/1', {
      ...json,
      body: JSON.stringify({ quantity: 1, padding: 'x'.repeat(5_000) }),
    });
    expect([response.status, codeOf(response)]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('415 UNSUPPORTED_MEDIA_TYPE for a body that is not sent as JSON', async () => {
    const response = await call(app, 'PATCH', '/inventory/1', { contentType: 'text/plain', body: '{"quantity":1}' });
    expect([response.status, codeOf(response)]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
  });
});

describe('updateInventory with changeFromQuantity (compare-and-set)', () => {
  it('200 when the stored quantity is changeFromQuantity; the same request again is 409, since the count it read is gone', async () => {
    await call(app, 'PATCH', '/inventory/5', { ...json, body: '{"quantity":7}' });
    const first = await call(app, 'PATCH', '/inventory/5', { ...json, body: '{"quantity":8,"changeFromQuantity":7}' });
    const again = await call(app, 'PATCH', '/inventory/5', { ...json, body: '{"quantity":8,"changeFromQuantity":7}' });
    expect([first.status, first.text]).toEqual([200, '{"petId":5,"quantity":8,"status":"available","reserved":0,"available":8}']);
    expect([again.status, codeOf(again)]).toEqual([409, 'QUANTITY_CHANGED']);
  });

  it('409 QUANTITY_CHANGED naming the stored quantity, and nothing written', async () => {
    await call(app, 'PATCH', '/inventory/5', { ...json, body: '{"quantity":9}' });
    const response = await call(app, 'PATCH', '/inventory/5', { ...json, body: '{"quantity":1,"changeFromQuantity":7}' });
    expect([response.status, codeOf(response)]).toEqual([409, 'QUANTITY_CHANGED']);
    expect(response.text).toContain('The stored quantity of pet 5 is 9');
    expect((await call(app, 'GET', '/inventory/5')).text).toBe('{"petId":5,"quantity":9,"status":"available","reserved":0,"available":9}');
  });
});

describe('updateInventory with If-Match', () => {
  it('412 PRECONDITION_FAILED for a version the entry no longer has, and nothing written', async () => {
    const read = await call(app, 'GET', '/inventory/5');
    await call(app, 'PATCH', '/inventory/5', { ...json, body: '{"quantity":11}' });
    const response = await call(app, 'PATCH', '/inventory/5', {
      ...json,
      body: '{"quantity":12}',
      headers: { 'If-Match': read.headers.get('etag')! },
    });
    expect([response.status, codeOf(response)]).toEqual([412, 'PRECONDITION_FAILED']);
    expect((await call(app, 'GET', '/inventory/5')).text).toBe(
      '{"petId":5,"quantity":11,"status":"available","reserved":0,"available":11}',
    );
  });
});

describe('updateInventory with an Idempotency-Key', () => {
  it('200 replayed with Idempotent-Replayed, and 422 IDEMPOTENCY_KEY_REUSED for the same key with another request', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await call(app, 'PATCH', '/inventory/5', { ...json, body: '{"quantity":31}', headers });
    const replayed = await call(app, 'PATCH', '/inventory/5', { ...json, body: '{"quantity":31}', headers });
    const reused = await call(app, 'PATCH', '/inventory/5', { ...json, body: '{"quantity":32}', headers });
    expect([first.status, replayed.status, replayed.headers.get('idempotent-replayed'), replayed.headers.get('etag')]).toEqual([
      200,
      200,
      'true',
      first.headers.get('etag'),
    ]);
    expect([reused.status, codeOf(reused)]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
  });
});

describe('listInventoryChanges', () => {
  it('200: a page of the history, oldest first', async () => {
    await app.history.caughtUp();
    const response = await call(app, 'GET', `/inventory/${BIG_ID}/changes?limit=1`);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toMatchObject({ changes: [{ version: 1, kind: 'seed', quantityBefore: null }] });
  });

  it.each([
    [400, 'INVALID_QUERY', '/inventory/1/changes?limit=0'],
    [400, 'INVALID_PET_ID', '/inventory/0/changes'],
    [404, 'PET_NOT_FOUND', '/inventory/424242/changes'],
  ])('%s %s', async (status, code, path) => {
    const response = await call(app, 'GET', path);
    expect([response.status, codeOf(response)]).toEqual([status, code]);
  });
});

describe('listInventoryChangeFeed', () => {
  it("200: every pet's changes from the oldest, then from nextCursor, which an empty page hands back as it was sent", async () => {
    await app.history.caughtUp();
    const first = await call(app, 'GET', '/inventory/changes?limit=1000');
    const page = JSON.parse(first.text) as { changes: { petId: number; version: number; kind: string }[]; nextCursor: string };
    const after = await call(app, 'GET', `/inventory/changes?cursor=${page.nextCursor}`);

    expect(first.status).toBe(200);
    // The seed's creation of every demo pet, and each change once (a pet's versions never repeat).
    expect(page.changes.filter((change) => change.kind === 'seed').map((change) => change.version)).toEqual(DEMO_INVENTORY.map(() => 1));
    expect(new Set(page.changes.map((change) => `${change.petId}.${change.version}`)).size).toBe(page.changes.length);
    expect(first.text).toContain(`"petId":${BIG_ID},"version":1,`);
    expect(first.headers.get('x-api-stability')).toBe('experimental');
    expect([after.status, JSON.parse(after.text)]).toEqual([200, { changes: [], nextCursor: page.nextCursor }]);
  });

  it.each([
    ['a limit of 0', '/inventory/changes?limit=0'],
    ['a limit above 1000', '/inventory/changes?limit=1001'],
    ['a cursor the feed did not hand out', '/inventory/changes?cursor=not-a-cursor'],
    ["a pet history's cursor", `/inventory/changes?cursor=${Buffer.from('v1.1').toString('base64url')}`],
    ['a cursor ahead of every change in the feed', `/inventory/changes?cursor=${feedCursorAfter(1_000_000)}`],
  ])('400 INVALID_QUERY for %s', async (_case, path) => {
    const response = await call(app, 'GET', path);
    expect([response.status, codeOf(response)]).toEqual([400, 'INVALID_QUERY']);
  });
});

describe('getInventoryItem', () => {
  it('200: the entry, an int64 id kept exact', async () => {
    const response = await call(app, 'GET', `/inventory/${BIG_ID}`);
    expect(response.status).toBe(200);
    expect(response.text).toMatch(
      new RegExp(`^\\{"petId":${BIG_ID},"quantity":\\d+,"status":"available","reserved":0,"available":\\d+\\}$`),
    );
  });

  it.each([
    [400, 'INVALID_PET_ID', '/inventory/0'],
    [404, 'PET_NOT_FOUND', '/inventory/424242'],
  ])('%s %s', async (status, code, path) => {
    const response = await call(app, 'GET', path);
    expect([response.status, codeOf(response)]).toEqual([status, code]);
  });
});

describe('adjustInventory', () => {
  const adjust = (petId: string, body: string, idempotencyKey?: string | null) =>
    call(app, 'POST', `/inventory/${petId}/adjustments`, { ...json, body, idempotencyKey });

  it('200: the entry after the change, then the same answer replayed with Idempotent-Replayed', async () => {
    const key = randomUUID();
    const first = await adjust('4', '{"delta":2,"reason":"arrival"}', key);
    const replay = await adjust('4', '{"delta":2,"reason":"arrival"}', key);
    expect([first.status, first.headers.has('idempotent-replayed')]).toEqual([200, false]);
    expect([replay.status, replay.text, replay.headers.get('idempotent-replayed')]).toEqual([200, first.text, 'true']);
    expect(replay.headers.get('x-api-stability')).toBe('experimental');
  });

  it.each([
    ['delta 0', '{"delta":0,"reason":"arrival"}', 'INVALID_BODY'],
    ['a delta beyond int32', '{"delta":2147483648,"reason":"arrival"}', 'INVALID_BODY'],
    ['an unknown reason', '{"delta":1,"reason":"theft"}', 'INVALID_BODY'],
    ['malformed JSON', '{"delta":', 'MALFORMED_JSON'],
  ])('400 for %s', async (_case, body, code) => {
    const response = await adjust('4', body);
    expect([response.status, codeOf(response)]).toEqual([400, code]);
  });

  it('400 IDEMPOTENCY_KEY_REQUIRED without the header', async () => {
    const response = await adjust('4', '{"delta":1,"reason":"arrival"}', null);
    expect([response.status, codeOf(response)]).toEqual([400, 'IDEMPOTENCY_KEY_REQUIRED']);
  });

  it('404 PET_NOT_FOUND, replayed as it was', async () => {
    const key = randomUUID();
    const first = await adjust('424242', '{"delta":1,"reason":"arrival"}', key);
    const replay = await adjust('424242', '{"delta":1,"reason":"arrival"}', key);
    expect([first.status, codeOf(first)]).toEqual([404, 'PET_NOT_FOUND']);
    expect([replay.status, replay.text, replay.headers.get('idempotent-replayed')]).toEqual([404, first.text, 'true']);
  });

  it.each([
    ['INSUFFICIENT_STOCK', '{"delta":-2147483647,"reason":"adjustment"}'],
    ['QUANTITY_OUT_OF_RANGE', '{"delta":2147483647,"reason":"arrival"}'],
  ])('409 %s, replayed as it was', async (code, body) => {
    const key = randomUUID();
    const first = await adjust('4', body, key);
    const replay = await adjust('4', body, key);
    expect([first.status, codeOf(first)]).toEqual([409, code]);
    expect([replay.status, replay.text, replay.headers.get('idempotent-replayed')]).toEqual([409, first.text, 'true']);
  });

  it('413 PAYLOAD_TOO_LARGE and 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const large = await adjust('4', JSON.stringify({ delta: 1, reason: 'arrival', padding: 'x'.repeat(5_000) }));
    const notJson = await call(app, 'POST', '/inventory/4/adjustments', {
      contentType: 'text/plain',
      body: '{"delta":1,"reason":"arrival"}',
    });
    expect([large.status, codeOf(large), notJson.status, codeOf(notJson)]).toEqual([
      413,
      'PAYLOAD_TOO_LARGE',
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ]);
  });

  it('422 IDEMPOTENCY_KEY_REUSED for the same key with another request', async () => {
    const key = randomUUID();
    await adjust('4', '{"delta":1,"reason":"arrival"}', key);
    const reused = await adjust('4', '{"delta":2,"reason":"arrival"}', key);
    expect([reused.status, codeOf(reused)]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
  });
});

describe('getPetById (deprecated)', () => {
  it('200: the id and status the inventory holds, with Deprecation, Sunset and Link', async () => {
    const response = await call(app, 'GET', `/pets/${BIG_ID}`);
    expect(response.text).toBe(`{"id":${BIG_ID},"status":"available"}`);
    expect(response.headers.get('deprecation')).toBe('@1767225600');
    expect(response.headers.get('sunset')).toBe('Thu, 01 Jul 2027 00:00:00 GMT');
    expect(response.headers.get('link')).toContain('rel="sunset"');
  });

  it('400 INVALID_PET_ID for a non-canonical id', async () => {
    const response = await call(app, 'GET', '/pets/007');
    expect([response.status, codeOf(response)]).toEqual([400, 'INVALID_PET_ID']);
  });

  it('404 PET_NOT_FOUND for an id the inventory does not know', async () => {
    const response = await call(app, 'GET', '/pets/424242');
    expect([response.status, codeOf(response)]).toEqual([404, 'PET_NOT_FOUND']);
    expect(response.headers.get('sunset')).toBe('Thu, 01 Jul 2027 00:00:00 GMT');
  });
});

describe('adjustInventoryBatch', () => {
  const batch = (body: string, idempotencyKey?: string | null) =>
    call(app, 'POST', '/inventory/adjustments', { ...json, body, idempotencyKey });
  const arrivals = (...petIds: string[]) =>
    JSON.stringify({ adjustments: petIds.map((petId) => ({ petId: Number(petId), delta: 1, reason: 'arrival' })) });

  it('200: the entries after the changes in request order, then the same answer replayed', async () => {
    const key = randomUUID();
    const first = await batch(arrivals('4', '1'), key);
    const replay = await batch(arrivals('4', '1'), key);
    expect([first.status, (JSON.parse(first.text) as { items: { petId: number }[] }).items.map((item) => item.petId)]).toEqual([
      200,
      [4, 1],
    ]);
    expect([replay.status, replay.text, replay.headers.get('idempotent-replayed')]).toEqual([200, first.text, 'true']);
    expect(replay.headers.get('x-api-stability')).toBe('experimental');
    // A batch names several entries, so its answer carries no single version.
    expect([first.headers.get('etag'), replay.headers.get('etag')]).toEqual([null, null]);
  });

  it.each([
    ['an empty list', '{"adjustments":[]}', 'INVALID_BODY'],
    ['a petId twice', arrivals('4', '4'), 'INVALID_BODY'],
    ['an entry with delta 0', '{"adjustments":[{"petId":4,"delta":0,"reason":"arrival"}]}', 'INVALID_BODY'],
    ['malformed JSON', '{"adjustments":[', 'MALFORMED_JSON'],
  ])('400 for %s', async (_case, body, code) => {
    const response = await batch(body);
    expect([response.status, codeOf(response)]).toEqual([400, code]);
  });

  it('400 IDEMPOTENCY_KEY_REQUIRED without the header', async () => {
    const response = await batch(arrivals('4'), null);
    expect([response.status, codeOf(response)]).toEqual([400, 'IDEMPOTENCY_KEY_REQUIRED']);
  });

  it('404 PET_NOT_FOUND naming the unknown pet, and nothing written', async () => {
    const before = (await call(app, 'GET', '/inventory/4')).text;
    const response = await batch(arrivals('4', '424242'));
    expect([response.status, codeOf(response)]).toEqual([404, 'PET_NOT_FOUND']);
    expect(response.text).toContain('424242');
    expect((await call(app, 'GET', '/inventory/4')).text).toBe(before);
  });

  it.each([
    ['INSUFFICIENT_STOCK', -2147483647, 'adjustment'],
    ['QUANTITY_OUT_OF_RANGE', 2147483647, 'arrival'],
  ])('409 %s', async (code, delta, reason) => {
    const response = await batch(JSON.stringify({ adjustments: [{ petId: 4, delta, reason }] }));
    expect([response.status, codeOf(response)]).toEqual([409, code]);
  });

  it('413 PAYLOAD_TOO_LARGE and 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const large = await batch(JSON.stringify({ adjustments: [{ petId: 4, delta: 1, reason: 'arrival' }], padding: 'x'.repeat(20_000) }));
    const notJson = await call(app, 'POST', '/inventory/adjustments', { contentType: 'text/plain', body: arrivals('4') });
    expect([large.status, codeOf(large), notJson.status, codeOf(notJson)]).toEqual([
      413,
      'PAYLOAD_TOO_LARGE',
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ]);
  });

  it('422 IDEMPOTENCY_KEY_REUSED for the same key with another list', async () => {
    const key = randomUUID();
    await batch(arrivals('4'), key);
    const reused = await batch(arrivals('1'), key);
    expect([reused.status, codeOf(reused)]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
  });
});

describe('reservations', () => {
  const reserve = (body: string, idempotencyKey: string | null = randomUUID()) =>
    call(app, 'POST', '/inventory/reservations', { ...json, body, idempotencyKey });
  const cart = (petId: number, quantity: number) => JSON.stringify({ items: [{ petId, quantity }], reference: 'cart-contract' });
  const idOf = (response: { text: string }) => (JSON.parse(response.text) as { reservationId: string }).reservationId;

  it('201 with a Location, then 200 for its read, its commit and a commit again', async () => {
    const made = await reserve(cart(2, 1));
    const id = idOf(made);
    expect([made.status, made.headers.get('location'), made.headers.get('x-api-stability')]).toEqual([
      201,
      `/v1/inventory/reservations/${id}`,
      'experimental',
    ]);
    expect((await call(app, 'GET', `/inventory/reservations/${id}`)).status).toBe(200);
    const committed = await call(app, 'POST', `/inventory/reservations/${id}/commit`);
    expect([committed.status, (await call(app, 'POST', `/inventory/reservations/${id}/commit`)).text]).toEqual([200, committed.text]);
    expect([(await call(app, 'DELETE', `/inventory/reservations/${id}`)).status]).toEqual([409]);
  });

  it('200 for a release, 409 RESERVATION_RELEASED for its commit', async () => {
    const id = idOf(await reserve(cart(2, 1)));
    expect((await call(app, 'DELETE', `/inventory/reservations/${id}`)).status).toBe(200);
    const commit = await call(app, 'POST', `/inventory/reservations/${id}/commit`);
    expect([commit.status, codeOf(commit)]).toEqual([409, 'RESERVATION_RELEASED']);
  });

  it('400, 404, 409, 413, 415 and 422 for a cart, each holding nothing', async () => {
    const key = randomUUID();
    await reserve(cart(2, 1), key);
    const answers = [
      await reserve('{"items":[]}'),
      await reserve(cart(2, 1), null),
      await reserve(cart(424242, 1)),
      await reserve(cart(2, 2147483647)),
      await reserve(JSON.stringify({ items: [{ petId: 2, quantity: 1 }], padding: 'x'.repeat(20_000) })),
      await call(app, 'POST', '/inventory/reservations', { contentType: 'text/plain', body: cart(2, 1), idempotencyKey: randomUUID() }),
      await reserve(cart(2, 2), key),
    ];
    expect(answers.map((response) => [response.status, codeOf(response)])).toEqual([
      [400, 'INVALID_BODY'],
      [400, 'IDEMPOTENCY_KEY_REQUIRED'],
      [404, 'PET_NOT_FOUND'],
      [409, 'INSUFFICIENT_STOCK'],
      [413, 'PAYLOAD_TOO_LARGE'],
      [415, 'UNSUPPORTED_MEDIA_TYPE'],
      [422, 'IDEMPOTENCY_KEY_REUSED'],
    ]);
  });

  it('404 RESERVATION_NOT_FOUND for an unknown reservation', async () => {
    const unknown = randomUUID();
    const answers = await Promise.all([
      call(app, 'GET', `/inventory/reservations/${unknown}`),
      call(app, 'POST', `/inventory/reservations/${unknown}/commit`),
      call(app, 'DELETE', `/inventory/reservations/${unknown}`),
    ]);
    expect(answers.map((response) => [response.status, codeOf(response)])).toEqual(answers.map(() => [404, 'RESERVATION_NOT_FOUND']));
  });
});

describe('low-stock thresholds', () => {
  const threshold = (method: 'PUT' | 'GET' | 'DELETE', petId: string, options: Call = {}) =>
    call(app, method, `/inventory/${petId}/low-stock-threshold`, options);

  it('200 for a set and its read, the reorder report listing the pet, 204 for its removal, then 404 LOW_STOCK_THRESHOLD_NOT_FOUND', async () => {
    const set = await threshold('PUT', '3', { ...json, body: '{"threshold":5}' });
    const read = await threshold('GET', '3');
    const report = await call(app, 'GET', '/inventory?lowStock=true');
    const removed = await threshold('DELETE', '3');
    const gone = await threshold('GET', '3');
    expect([set.status, set.text, read.status, read.text]).toEqual([200, '{"petId":3,"threshold":5}', 200, '{"petId":3,"threshold":5}']);
    // Pet 3 (none available) is the one pet with a threshold, so the only one below it.
    expect([report.status, report.text]).toEqual([200, '[{"petId":3,"quantity":0,"status":"sold","reserved":0,"available":0}]']);
    expect([removed.status, removed.text, gone.status, codeOf(gone)]).toEqual([204, '', 404, 'LOW_STOCK_THRESHOLD_NOT_FOUND']);
  });

  it('400 INVALID_QUERY for a reorder report asked with lowStock neither true nor false', async () => {
    const response = await call(app, 'GET', '/inventory?lowStock=yes');
    expect([response.status, codeOf(response)]).toEqual([400, 'INVALID_QUERY']);
  });

  it.each([
    ['a missing threshold', '3', '{}', 'INVALID_BODY'],
    ['a negative threshold', '3', '{"threshold":-1}', 'INVALID_BODY'],
    ['a threshold above int32', '3', '{"threshold":2147483648}', 'INVALID_BODY'],
    ['malformed JSON', '3', '{"threshold":', 'MALFORMED_JSON'],
    ['a petId that is not canonical', '03', '{"threshold":5}', 'INVALID_PET_ID'],
  ])('PUT 400 for %s', async (_case, petId, body, code) => {
    const response = await threshold('PUT', petId, { ...json, body });
    expect([response.status, codeOf(response)]).toEqual([400, code]);
  });

  it('GET and DELETE 400 INVALID_PET_ID; PUT, GET and DELETE 404 PET_NOT_FOUND for a pet without an entry', async () => {
    const answers = [
      await threshold('GET', '0'),
      await threshold('DELETE', '0'),
      await threshold('PUT', '424242', { ...json, body: '{"threshold":5}' }),
      await threshold('GET', '424242'),
      await threshold('DELETE', '424242'),
    ];
    expect(answers.map((response) => [response.status, codeOf(response)])).toEqual([
      [400, 'INVALID_PET_ID'],
      [400, 'INVALID_PET_ID'],
      [404, 'PET_NOT_FOUND'],
      [404, 'PET_NOT_FOUND'],
      [404, 'PET_NOT_FOUND'],
    ]);
  });

  it('PUT 413 PAYLOAD_TOO_LARGE and 415 UNSUPPORTED_MEDIA_TYPE, and nothing set', async () => {
    const large = await threshold('PUT', '3', { ...json, body: JSON.stringify({ threshold: 5, padding: 'x'.repeat(5_000) }) });
    const notJson = await threshold('PUT', '3', { contentType: 'text/plain', body: '{"threshold":5}' });
    expect([large.status, codeOf(large), notJson.status, codeOf(notJson)]).toEqual([
      413,
      'PAYLOAD_TOO_LARGE',
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ]);
    expect(codeOf(await threshold('GET', '3'))).toBe('LOW_STOCK_THRESHOLD_NOT_FOUND');
  });
});

describe('every operation', () => {
  const operations = [
    ['listInventory', 'GET', '/inventory', undefined],
    ['getInventoryItem', 'GET', '/inventory/1', undefined],
    ['updateInventory', 'PATCH', '/inventory/1', '{"quantity":1}'],
    ['adjustInventory', 'POST', '/inventory/1/adjustments', '{"delta":1,"reason":"arrival"}'],
    ['adjustInventoryBatch', 'POST', '/inventory/adjustments', '{"adjustments":[{"petId":1,"delta":1,"reason":"arrival"}]}'],
    ['listInventoryChanges', 'GET', '/inventory/1/changes', undefined],
    ['listInventoryChangeFeed', 'GET', '/inventory/changes', undefined],
    ['getPetById', 'GET', '/pets/1', undefined],
    ['reserveInventory', 'POST', '/inventory/reservations', '{"items":[{"petId":1,"quantity":1}],"ttlSeconds":1}'],
    ['getReservation', 'GET', '/inventory/reservations/7c9e6679-7425-40de-944b-e07fc1f90ae7', undefined],
    ['commitReservation', 'POST', '/inventory/reservations/7c9e6679-7425-40de-944b-e07fc1f90ae7/commit', undefined],
    ['releaseReservation', 'DELETE', '/inventory/reservations/7c9e6679-7425-40de-944b-e07fc1f90ae7', undefined],
    ['putLowStockThreshold', 'PUT', '/inventory/1/low-stock-threshold', '{"threshold":5}'],
    ['getLowStockThreshold', 'GET', '/inventory/1/low-stock-threshold', undefined],
    ['deleteLowStockThreshold', 'DELETE', '/inventory/1/low-stock-threshold', undefined],
  ] as const;

  it.each(operations)('%s: 401 UNAUTHORIZED without a key or with an unknown one', async (_operation, method, path, body) => {
    for (const apiKey of [null, 'UnknownKey0000000000000000000']) {
      const response = await call(app, method, path, { ...json, body, apiKey });
      expect([response.status, codeOf(response)]).toEqual([401, 'UNAUTHORIZED']);
    }
  });

  it.each(operations)('%s: 500 INTERNAL_ERROR when the store fails unexpectedly', async (_operation, method, path, body) => {
    const boom = () => Promise.reject(new Error('unexpected'));
    vi.spyOn(app.dependencies.inventory, 'listAll').mockImplementationOnce(failingListing(new Error('unexpected')));
    vi.spyOn(app.dependencies.inventory, 'write').mockImplementationOnce(boom);
    vi.spyOn(app.dependencies.inventory, 'get').mockImplementationOnce(boom);
    vi.spyOn(app.dependencies.idempotentWriter, 'adjust').mockImplementationOnce(boom);
    vi.spyOn(app.dependencies.idempotentWriter, 'adjustBatch').mockImplementationOnce(boom);
    vi.spyOn(app.dependencies.changeFeed, 'page').mockImplementationOnce(boom);
    vi.spyOn(app.dependencies.idempotentWriter, 'reserve').mockImplementationOnce(boom);
    for (const settle of ['get', 'commit', 'release'] as const)
      vi.spyOn(app.dependencies.reservations, settle).mockImplementationOnce(boom);
    for (const access of ['set', 'get', 'remove'] as const) vi.spyOn(app.dependencies.thresholds, access).mockImplementationOnce(boom);
    const response = await call(app, method, path, { ...json, body });
    expect([response.status, codeOf(response)]).toEqual([500, 'INTERNAL_ERROR']);
    vi.restoreAllMocks();
  });

  it.each(operations)(
    '%s: 503 with Retry-After when the store is unavailable, from the function or the authorizer',
    async (_operation, method, path, body) => {
      const unavailable = () => Promise.reject(new StoreUnavailableError());
      vi.spyOn(app.dependencies.inventory, 'listAll').mockImplementationOnce(failingListing(new StoreUnavailableError()));
      vi.spyOn(app.dependencies.inventory, 'write').mockImplementationOnce(unavailable);
      vi.spyOn(app.dependencies.inventory, 'get').mockImplementationOnce(unavailable);
      vi.spyOn(app.dependencies.idempotentWriter, 'adjust').mockImplementationOnce(unavailable);
      vi.spyOn(app.dependencies.idempotentWriter, 'adjustBatch').mockImplementationOnce(unavailable);
      vi.spyOn(app.dependencies.changeFeed, 'page').mockImplementationOnce(unavailable);
      vi.spyOn(app.dependencies.idempotentWriter, 'reserve').mockImplementationOnce(unavailable);
      for (const settle of ['get', 'commit', 'release'] as const)
        vi.spyOn(app.dependencies.reservations, settle).mockImplementationOnce(unavailable);
      for (const access of ['set', 'get', 'remove'] as const)
        vi.spyOn(app.dependencies.thresholds, access).mockImplementationOnce(unavailable);
      const fromFunction = await call(app, method, path, { ...json, body });
      vi.restoreAllMocks();
      // A key not seen yet: the authorizer's kept answer for the usual one would spare it the lookup.
      const { apiKey } = await new KeyAdmin(app.dependencies.apiKeys, app.dependencies.usageCounters).issue({
        plan: 'business',
        owner: 'contract',
      });
      vi.spyOn(app.dependencies.apiKeys, 'findByHash').mockImplementationOnce(unavailable);
      const fromAuthorizer = await call(app, method, path, { ...json, body, apiKey });
      vi.restoreAllMocks();

      expect([fromFunction.status, codeOf(fromFunction), fromFunction.headers.has('x-ratelimit-limit')]).toEqual([
        503,
        'SERVICE_UNAVAILABLE',
        true,
      ]);
      expect([fromAuthorizer.status, codeOf(fromAuthorizer), fromAuthorizer.headers.has('x-ratelimit-limit')]).toEqual([
        503,
        'SERVICE_UNAVAILABLE',
        false,
      ]);
    },
  );

  it('429 on a free-plan key past 60 requests a minute, then API_KEY_TEMPORARILY_BANNED on every operation', async () => {
    const free = await startLocalApp({
      ...testAppStore(),
      seed: DEMO_INVENTORY,
      devApiKey: FREE_KEY,
      devPlan: 'free',
      banPolicy: { rejectionsPerMinute: 2, durationSeconds: 60 },
    });
    try {
      await insideOneMinute();
      const statuses: number[] = [];
      while (!statuses.includes(429) && statuses.length < 121)
        statuses.push((await call(free, 'GET', '/inventory', { apiKey: FREE_KEY })).status);
      const limited = await call(free, 'GET', '/inventory', { apiKey: FREE_KEY });
      const banned = await Promise.all(
        operations.map(([, method, path, body]) => call(free, method, path, { ...json, body, apiKey: FREE_KEY })),
      );

      expect(statuses.at(-1)).toBe(429);
      expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
      expect(codeOf(limited)).toBe('RATE_LIMIT_EXCEEDED');
      expect(banned.map((response) => [response.status, codeOf(response)])).toEqual(
        operations.map(() => [429, 'API_KEY_TEMPORARILY_BANNED']),
      );
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await free.close();
    }
  });
});

describe('outside the operations', () => {
  it.each([
    ['GET', '/nothing-here'],
    ['DELETE', '/inventory'],
    ['PATCH', '/pets/1'],
  ])('%s %s: 404 ROUTE_NOT_FOUND', async (method, path) => {
    const response = await call(app, method, path);
    expect([response.status, codeOf(response)]).toEqual([404, 'ROUTE_NOT_FOUND']);
  });

  it.each([
    ['PUT', '/inventory/1', '/v1/inventory/{petId} takes GET and PATCH only'],
    ['DELETE', '/inventory', '/v1/inventory takes GET only'],
    ['GET', '/inventory/reservations', '/v1/inventory/reservations takes POST only'],
    ['POST', '/inventory/1/low-stock-threshold', '/v1/inventory/{petId}/low-stock-threshold takes DELETE, GET and PUT only'],
  ])('%s %s: 404 naming the methods the path takes', async (method, path, takes) => {
    const response = await call(app, method, path);
    expect(JSON.parse(response.text)).toEqual({
      code: 'ROUTE_NOT_FOUND',
      message: `${takes}; no operation answers another method there. The reference at /v1/docs lists every operation.`,
      status: 404,
    });
  });

  it.each(['/inventory', '/v2/inventory', '/v1x/inventory'])(
    'GET %s, outside the base address: 404 saying every path starts with /v1',
    async (path) => {
      const response = await fetch(`${app.baseUrl.replace(/\/v1$/, '')}${path}`, { headers: { Authorization: `Bearer ${BUSINESS_KEY}` } });
      expect([response.status, await response.json()]).toEqual([
        404,
        { code: 'ROUTE_NOT_FOUND', message: NO_SUCH_PATH_MESSAGE, status: 404 },
      ]);
    },
  );

  it('GET /v1/openapi.json serves the committed document without a key, naming the server it came from', async () => {
    const response = await fetch(`${app.baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    const served = JSON.parse(await response.text());
    const committed = JSON.parse(await readFile(OPENAPI_FILE, 'utf8'));
    expect(served.servers).toEqual([{ url: app.baseUrl, description: expect.any(String) }]);
    // The served copy states the answers several operations give alike once (withSharedResponses), and its curl lines call its own server.
    const [placeholder] = committed.servers as { url: string; variables: { host: { default: string } } }[];
    const committedServer = placeholder!.url.replace('{host}', placeholder!.variables.host.default);
    const expected = JSON.parse(JSON.stringify(withSharedResponses(committed)).replaceAll(committedServer, app.baseUrl));
    expect(served.paths).toEqual(expected.paths);
    expect(served.components).toEqual(expected.components);
    expect(served.webhooks).toEqual(expected.webhooks);
  });
});

describe('coverage of the contract', () => {
  it('provoked every answer the document lists, and validated each one', () => {
    const provoked = new Set(contract.checked);
    const documented = contract.documentedAnswers();
    console.log(
      `contract: ${contract.checked.length} responses validated against openapi.json (${provoked.size} distinct operation/status pairs; ${documented.length} documented)`,
    );
    expect(documented.filter((answer) => !provoked.has(answer))).toEqual([]);
  });
});
