import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInventoryClient } from '../../client/index.ts';

/**
 * `npm start` killed with SIGKILL in the middle of a load of adjustments sent through the typed
 * client, then started again on the same DATA_DIR and port: once the client's retries are
 * done, the stock is the start plus every delta, each exactly once.
 */

const KEY = 'CrashAdjustmentsKey0000000000001';
const ADJUSTMENTS = 60;
const CONCURRENCY = 6;

let dataDir: string;
let port: number;
const servers: ChildProcess[] = [];

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const chosen = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return chosen;
}

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

describe('adjustments through a SIGKILL of the server', () => {
  it('apply each delta exactly once, once the typed client has retried them all', async () => {
    const first = await startServer();
    // Patient enough to outlast a restart: each call retries network failures with its own Idempotency-Key.
    const client = createInventoryClient({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      apiKey: KEY,
      maxAttempts: 60,
      baseDelayMs: 100,
      maxDelayMs: 1_000,
      timeoutMs: 120_000,
    });
    const start = (await client.getInventoryItem(1n)).data!.quantity;
    const deltas = Array.from({ length: ADJUSTMENTS }, (_, index) => (index % 3 === 2 ? -1 : (index % 5) + 1));

    let next = 0;
    let answered = 0;
    const worker = async () => {
      const results = [];
      while (next < deltas.length) {
        const delta = deltas[next++]!;
        results.push(await client.adjustInventory(1n, { delta, reason: delta > 0 ? 'arrival' : 'adjustment' }));
        answered += 1;
      }
      return results;
    };
    const load = Promise.all(Array.from({ length: CONCURRENCY }, worker));
    while (answered < ADJUSTMENTS / 4) await sleep(10);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    await startServer();
    const results = (await load).flat();

    expect(results.map((result) => result.error?.code ?? result.status)).toEqual(deltas.map(() => 200));
    expect((await client.getInventoryItem(1n)).data!.quantity).toBe(start + deltas.reduce((sum, delta) => sum + delta, 0));
  }, 180_000);
});
