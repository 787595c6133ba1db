import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patientClient } from '../../support/patient-client.ts';
import { freePort } from '../../../local/local-store.ts';
import { caughtUpHistory } from '../../support/pet-history.ts';

/**
 * `npm start` killed with SIGKILL in the middle of a load of adjustments (single, then batches)
 * sent through the typed client, then started again on the same DATA_DIR and port: once the
 * client's retries are done, the stock is the start plus every delta, each exactly once, and
 * each pet's history holds one entry per applied change, its versions unbroken up to the entry's.
 */

const KEY = 'CrashAdjustmentsKey0000000000001';
const ADJUSTMENTS = 60;
const BATCHES = 40;
const CONCURRENCY = 6;

let dataDir: string;
let port: number;
const servers: ChildProcess[] = [];

async function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/main.ts'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DEV_API_KEY: KEY, DEV_PLAN: 'business', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  servers.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes('listening on')) {
        clearInterval(timer);
        resolve();
      }
    }, 50);
    child.once('exit', () => {
      clearInterval(timer);
      reject(new Error(`server exited before listening:\n${output}`));
    });
  });
  return child;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'adjustments-crash-'));
  port = await freePort();
});

afterAll(async () => {
  for (const server of servers) if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  await sleep(200);
  await rm(dataDir, { recursive: true, force: true });
});

interface HistoryRecord {
  version: number;
  kind: string;
  delta: number | null;
  quantityBefore: number | null;
  quantityAfter: number;
  idempotencyKey?: string | null;
}

/** The pet's whole history once it has caught up with the entry's version. */
const historyOf = (petId: bigint) => caughtUpHistory<HistoryRecord>(`http://127.0.0.1:${port}/v1`, KEY, petId);

const ascending = (a: number | null, b: number | null) => (a ?? 0) - (b ?? 0);

/** The chain a history must be: versions one apart, each change starting where the one before ended. */
function expectUnbrokenChain(history: HistoryRecord[]): void {
  for (const [index, entry] of history.entries()) {
    if (index === 0) continue;
    const before = history[index - 1]!;
    expect([entry.version, entry.quantityBefore]).toEqual([before.version + 1, before.quantityAfter]);
  }
}

/** Runs `send` for every index on CONCURRENCY workers; SIGKILLs the server once a quarter has answered, then starts it again. */
async function throughACrash<T>(count: number, send: (index: number) => Promise<T>): Promise<T[]> {
  const first = servers.at(-1)!;
  let next = 0;
  let answered = 0;
  const results: T[] = [];
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await send(index);
      answered += 1;
    }
  };
  const load = Promise.all(Array.from({ length: CONCURRENCY }, worker));
  while (answered < count / 4) await sleep(10);
  first.kill('SIGKILL');
  await new Promise((resolve) => first.once('exit', resolve));
  await startServer();
  await load;
  return results;
}

describe('adjustments through a SIGKILL of the server', () => {
  it('apply each delta exactly once, once the typed client has retried them all', async () => {
    await startServer();
    const client = patientClient(port, KEY);
    const start = (await client.getInventoryItem(1n)).data!.quantity;
    const recordedBefore = (await historyOf(1n)).length;
    const deltas = Array.from({ length: ADJUSTMENTS }, (_, index) => (index % 3 === 2 ? -1 : (index % 5) + 1));

    const results = await throughACrash(deltas.length, (index) =>
      client.adjustInventory(1n, { delta: deltas[index]!, reason: deltas[index]! > 0 ? 'arrival' : 'adjustment' }),
    );

    expect(results.map((result) => result.error?.code ?? result.status)).toEqual(deltas.map(() => 200));
    expect((await client.getInventoryItem(1n)).data!.quantity).toBe(start + deltas.reduce((sum, delta) => sum + delta, 0));
    const recorded = (await historyOf(1n)).slice(recordedBefore);
    expectUnbrokenChain(await historyOf(1n));
    expect(recorded.map((entry) => entry.kind)).toEqual(deltas.map(() => 'adjustment'));
    // One entry per adjustment, whatever order they landed in: each key once, the deltas those sent.
    expect(new Set(recorded.map((entry) => entry.idempotencyKey)).size).toBe(ADJUSTMENTS);
    expect(recorded.map((entry) => entry.delta).sort(ascending)).toEqual([...deltas].sort(ascending));
  }, 180_000);

  it('apply each batch exactly once, all of its changes or none, once the typed client has retried them all', async () => {
    const client = patientClient(port, KEY);
    const listed = await client.listInventory();
    const pets = listed.data!.filter((item) => item.petId !== 1n);
    const recordedBefore = await Promise.all(pets.map(async (pet) => (await historyOf(pet.petId)).length));
    // Arrivals only, so that no batch is refused whatever order they land in; the big id shows ids stay exact through retries.
    const batches = Array.from({ length: BATCHES }, (_, b) =>
      pets.map((pet, p) => ({ petId: pet.petId, delta: ((b + p) % 4) + 1, reason: 'arrival' as const })),
    );

    const results = await throughACrash(BATCHES, (b) => client.adjustInventoryBatch(batches[b]!));

    expect(results.map((result) => result.error?.code ?? result.status)).toEqual(batches.map(() => 200));
    const after = (await client.listInventory()).data!.filter((item) => item.petId !== 1n);
    expect(after.map(({ petId, quantity }) => [petId, quantity])).toEqual(
      pets.map(({ petId, quantity }, p) => [petId, quantity + batches.reduce((sum, changes) => sum + changes[p]!.delta, 0)]),
    );
    for (const [p, pet] of pets.entries()) {
      const history = await historyOf(pet.petId);
      expectUnbrokenChain(history);
      // Concurrent batches land in any order: the pet's entries are its deltas of every batch, once each.
      expect(
        history
          .slice(recordedBefore[p])
          .map((entry) => entry.delta)
          .sort(ascending),
      ).toEqual(batches.map((changes) => changes[p]!.delta).sort(ascending));
    }
  }, 180_000);
});
