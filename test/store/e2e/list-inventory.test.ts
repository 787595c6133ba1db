import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { INVENTORY_PAGE_SIZE } from '../../../functions/adapters/dynamodb/stored-inventory-item.ts';
import { inventoryTable } from '../../../functions/adapters/dynamodb/tables.ts';
import { MAX_INT64 } from '../../../functions/domain/pet-id.ts';
import type { InventoryCount, InventoryItem, PetStatus } from '../../../functions/domain/schemas.ts';
import { unheld } from '../../../functions/domain/stock-writes.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { parseJsonWithInt64 } from '../../../client/int64-json.ts';
import { beforeLaterPages, idsInShard, putInventoryFixture, testAttribution, throttled } from '../../support/inventory.ts';
import { testAppStore, uniqueTables } from '../../support/local-store.ts';
import { startLocalStore, type LocalStore } from '../../../local/local-store.ts';

/**
 * GET /v1/inventory over HTTP, from the local server (which streams as API Gateway does in
 * transfer mode STREAM) down to DynamoDB Local: complete, sorted and exact at every size, with
 * and without compression; cut, never short, when the store fails mid-stream; consistent while
 * pets are updated under it.
 */

const KEY = 'ListingKey000000000000000000001';
const STATUSES: readonly PetStatus[] = ['available', 'pending', 'sold'];
const byPetId = (a: InventoryCount, b: InventoryCount) => (a.petId < b.petId ? -1 : a.petId > b.petId ? 1 : 0);

function inventoryOf(ids: readonly bigint[]): InventoryCount[] {
  return ids.map((petId, index) => ({ petId, quantity: (index * 7919) % 2_147_483_647, status: STATUSES[index % STATUSES.length]! }));
}

async function appHolding(items: readonly InventoryCount[], engine?: { endpoint: string }): Promise<LocalApp> {
  const store = engine ? { store: engine, tables: uniqueTables() } : testAppStore();
  // The listing reads no history: its 20,500 pets' changes would keep the shared engine busy for minutes.
  const app = await startLocalApp({ ...store, seed: [], devApiKey: KEY, devPlan: 'business', recordChanges: false });
  await putInventoryFixture(app.dependencies.client, store.tables.inventoryTable, items);
  return app;
}

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Whether the chunked transfer ended properly (false when the server cut it). */
  complete: boolean;
}

/** The listing as bytes off the wire, without decompression. */
function rawListing(app: LocalApp, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${app.baseUrl}/inventory`, { headers: { Authorization: `Bearer ${KEY}`, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', () => undefined);
      response.on('close', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks), complete: response.complete }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

async function listed(app: LocalApp, acceptEncoding: string): Promise<{ response: Response; items: InventoryItem[] }> {
  const response = await fetch(`${app.baseUrl}/inventory`, {
    headers: { Authorization: `Bearer ${KEY}`, 'Accept-Encoding': acceptEncoding },
  });
  return { response, items: parseJsonWithInt64(await response.text()) as InventoryItem[] };
}

describe.each([
  ['no pets', () => []],
  ['one pet', () => inventoryOf([MAX_INT64])],
  ['a page boundary: one shard holding exactly a page', () => inventoryOf(idsInShard(3, INVENTORY_PAGE_SIZE))],
  [
    'several pages of one shard, and the other shards',
    () => inventoryOf([...idsInShard(0, 2 * INVENTORY_PAGE_SIZE + 1), ...Array.from({ length: 50 }, (_, index) => BigInt(index + 1))]),
  ],
])('listing %s', (_case, inventory) => {
  const items = [...new Map(inventory().map((item) => [item.petId, item])).values()];
  let app: LocalApp;
  beforeAll(async () => {
    app = await appHolding(items);
  });
  afterAll(async () => app?.close());

  it.each(['identity', 'gzip', 'br'])('is complete, sorted and exact with Accept-Encoding: %s', async (encoding) => {
    const { response, items: received } = await listed(app, encoding);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe(encoding === 'identity' ? null : encoding);
    // No reservation holds any of them: each is answered with nothing reserved and its quantity available.
    expect(received).toEqual([...items].sort(byPetId).map(unheld));
  });
});

describe('listing 20,500 pets with 19-digit ids', () => {
  const COUNT = 20_500;
  // Counting down from the largest int64 in steps of about 10^14: every id has 19 digits, and they spread over every shard.
  const items = inventoryOf(Array.from({ length: COUNT }, (_, index) => MAX_INT64 - BigInt(index) * 100_000_000_000_003n));
  const sorted = [...items].sort(byPetId);
  let app: LocalApp;
  // An engine of its own: on the run's shared engine, late in a full run, writing these pets took
  // over 180 s where a fresh engine takes about 40 s.
  let engine: LocalStore;
  beforeAll(async () => {
    engine = await startLocalStore();
    app = await appHolding(items, engine);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await engine?.close();
  });

  it.each(['identity', 'gzip'])('is complete, sorted and exact with Accept-Encoding: %s, and streamed in chunks', async (encoding) => {
    const raw = await rawListing(app, { 'Accept-Encoding': encoding });
    const { items: received } = await listed(app, encoding);

    expect([raw.status, raw.complete, raw.headers['transfer-encoding'], raw.headers['content-length']]).toEqual([
      200,
      true,
      'chunked',
      undefined,
    ]);
    expect(received).toHaveLength(COUNT);
    expect(received[0]!.petId.toString()).toHaveLength(19);
    expect(received).toEqual(sorted.map(unheld));
  });

  it('lists every pet once, with its old or its new quantity, while pets are updated during the listing', async () => {
    const before = new Map(sorted.map((item) => [item.petId, item.quantity]));
    // Every 40th pet: on the first page of its shard or on a later one.
    const updated = sorted.filter((_item, index) => index % 40 === 0);
    const newQuantity = (petId: bigint) => Number(petId % 1_000n) + 1_000_000;
    let updates: Promise<unknown> | undefined;
    const stop = beforeLaterPages(
      app.dependencies.client,
      () =>
        (updates ??= Promise.all(
          updated.map((item) =>
            app.dependencies.inventory.write({
              petId: item.petId,
              set: { quantity: newQuantity(item.petId), preconditions: {} },
              attribution: testAttribution(),
            }),
          ),
        )),
    );

    const raw = await rawListing(app).finally(stop);
    const received = parseJsonWithInt64(raw.body.toString('utf8')) as InventoryItem[];

    expect(raw.complete).toBe(true);
    expect(received.map((item) => item.petId)).toEqual(sorted.map((item) => item.petId));
    const updatedIds = new Set(updated.map((item) => item.petId));
    const changed = received.filter((item) => item.quantity !== before.get(item.petId));
    expect(changed.every((item) => updatedIds.has(item.petId) && item.quantity === newQuantity(item.petId))).toBe(true);
    // Pets on the first pages were read before the updates, the others after: both values occur.
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(updated.length);
  });
});

describe('a store fault after the first page', () => {
  const items = inventoryOf(idsInShard(0, INVENTORY_PAGE_SIZE + 1));
  let app: LocalApp;
  let removeFault: () => void = () => undefined;
  beforeAll(async () => {
    app = await appHolding(items);
    // The second page of a shard fails, as a throttled table would.
    removeFault = beforeLaterPages(app.dependencies.client, () => Promise.reject(throttled()));
  });
  afterAll(async () => {
    removeFault();
    await app?.close();
  });

  it('cuts the transfer: the body is the first page without its closing bracket, never a well-formed short array', async () => {
    const raw = await rawListing(app, { 'Accept-Encoding': 'identity' });
    const text = raw.body.toString('utf8');

    expect([raw.status, raw.complete]).toEqual([200, false]);
    expect(text.startsWith('[{"petId":')).toBe(true);
    expect(text.endsWith(']')).toBe(false);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(parseJsonWithInt64(`${text}]`)).toEqual([...items].sort(byPetId).slice(0, INVENTORY_PAGE_SIZE).map(unheld));
  });

  it('makes fetch fail while reading the body, whatever the coding', async () => {
    for (const encoding of ['identity', 'gzip']) {
      const response = await fetch(`${app.baseUrl}/inventory`, {
        headers: { Authorization: `Bearer ${KEY}`, 'Accept-Encoding': encoding },
      });
      expect(response.status).toBe(200);
      await expect(response.text()).rejects.toThrow(TypeError);
    }
  });
});

/** The bytes a client gets that sends its request and at once half-closes its side (shutdown of writing), as `nc -N` does. */
function halfClosedExchange(app: LocalApp, path: string): Promise<string> {
  const { hostname, port, pathname } = new URL(`${app.baseUrl}${path}`);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.end(
      `GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${KEY}\r\nAccept-Encoding: identity\r\n\r\n`,
    );
  });
}

/** The body of a chunked HTTP/1.1 answer, and whether its last chunk came. */
function dechunked(answer: string): { body: string; complete: boolean } {
  let rest = answer.slice(answer.indexOf('\r\n\r\n') + 4);
  let body = '';
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    if (lineEnd < 0) return { body, complete: false };
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (size === 0) return { body, complete: true };
    body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

describe('a client that half-closes its side right after the request', () => {
  const items = inventoryOf(idsInShard(0, INVENTORY_PAGE_SIZE * 2 + 3));
  let app: LocalApp;
  beforeAll(async () => {
    app = await appHolding(items);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('still gets the whole streamed listing: HTTP/1.1 owes it the answer', async () => {
    const answer = await halfClosedExchange(app, '/inventory');
    const { body, complete } = dechunked(answer);

    expect(answer.slice(0, answer.indexOf('\r\n'))).toBe('HTTP/1.1 200 OK');
    expect(complete).toBe(true);
    expect(parseJsonWithInt64(body)).toEqual([...items].sort(byPetId).map(unheld));
  });

  it('still gets a one-entry answer', async () => {
    const answer = await halfClosedExchange(app, `/inventory/${items[0]!.petId}`);

    expect(answer.slice(0, answer.indexOf('\r\n'))).toBe('HTTP/1.1 200 OK');
    expect(parseJsonWithInt64(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual(unheld(items[0]!));
  });
});

/**
 * Holds every Query of the app's store until `release`: the listing cannot begin its answer before.
 * `held` resolves at the first Query; `queries` counts them.
 */
function holdQueries(app: LocalApp): { held: Promise<void>; release: () => void; queries: () => number } {
  let queries = 0;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let markHeld: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (markHeld = resolve));
  app.dependencies.client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'QueryCommand') {
        queries += 1;
        markHeld();
        await released;
      }
      return next(args);
    },
    { step: 'initialize', name: 'holdQueries' },
  );
  return { held, release, queries: () => queries };
}

/** What the app logs from here on (at LOG_LEVEL info), as one text; vi.restoreAllMocks ends it. */
function captureLogs(): () => string {
  vi.stubEnv('LOG_LEVEL', 'info');
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  return () => [...stderr.mock.calls, ...stdout.mock.calls].flat().join('\n');
}

describe('a client that closes its connection and is gone before the answer begins', () => {
  // Several pages in one shard, so the answer is still being written when the client's reset comes.
  const pages = 6;
  let app: LocalApp;
  beforeAll(async () => {
    app = await appHolding(inventoryOf(idsInShard(0, INVENTORY_PAGE_SIZE * pages)));
  });
  afterAll(async () => {
    await app?.close();
  });

  it("stops reading the store once its reset refuses the answer's bytes, and logs the request as answered", async () => {
    const lines = captureLogs();
    const store = holdQueries(app);
    try {
      const request = httpRequest(`${app.baseUrl}/inventory`, {
        headers: { Authorization: `Bearer ${KEY}`, 'Accept-Encoding': 'identity' },
      });
      request.on('error', () => undefined);
      request.end();
      await store.held;
      request.destroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
      store.release();

      await vi.waitFor(() => expect(lines()).toMatch(/"message":"request".*"status":200/), { timeout: 10_000, interval: 50 });

      // One Query per shard, then the next pages of shard 0, which holds every pet: most are never read.
      expect(store.queries()).toBeLessThan(inventoryTable.shards + pages - 1);
      expect(lines()).not.toMatch(/request refused|handler threw/);
    } finally {
      vi.restoreAllMocks();
      vi.unstubAllEnvs();
    }
  });
});

describe('a client that resets its connection before the answer begins', () => {
  it('ends the listing without reporting a failure, logged as 499', async () => {
    const app = await appHolding(inventoryOf(idsInShard(0, 10)));
    const lines = captureLogs();
    // Every Query waits until the client has gone, so the answer cannot begin before.
    const store = holdQueries(app);
    try {
      const request = httpRequest(`${app.baseUrl}/inventory`, { headers: { Authorization: `Bearer ${KEY}` } });
      request.on('error', () => undefined);
      request.end();
      await store.held;
      // A reset, not a close: a client that only closes its side may still be waiting for the answer (see above).
      request.socket!.resetAndDestroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
      store.release();

      await vi.waitFor(() => expect(lines()).toContain('"status":499'), { timeout: 10_000, interval: 50 });
      expect(lines()).not.toMatch(/handler threw|stream aborted/);
    } finally {
      vi.restoreAllMocks();
      vi.unstubAllEnvs();
      await app.close();
    }
  });
});
