/**
 * Reservations: what a reserve, a commit and a release cost beside an adjustment (store calls,
 * read and write units as DynamoDB reports them, latency through the domain and the store), and
 * 60 carts racing for the last 20 of one pet (the time until all are answered). Runs on its own:
 * `npx tsx bench/reservations.ts` prints the section; bench/run.ts adds it to results.md.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type BilledCall, readUnits, recordStoreCalls, type StoreCall, writeUnits } from './consumed-capacity.ts';
import { benchInventory, type BenchStore, documentClientsOf, startBenchStore } from './fixtures.ts';
import { fixed, table } from './markdown.ts';
import { median, percentile } from './stats.ts';

/** Samples of each operation's latency. */
const SAMPLES = 100;
/** The race: carts of one each, against this much stock of one pet. */
const RACING_CARTS = 60;
const RACED_STOCK = 20;
const author = { requestId: 'bench-request', keyId: 'key_bench' };

interface Measured {
  name: string;
  latencies: number[];
  calls: BilledCall[][];
}

/** Runs `operation` SAMPLES times one after another, recording each one's latency and store calls. */
async function measure(name: string, calls: StoreCall[], operation: (index: number) => Promise<unknown>): Promise<Measured> {
  const measured: Measured = { name, latencies: [], calls: [] };
  for (let index = 0; index < SAMPLES; index += 1) {
    const before = calls.length;
    const started = performance.now();
    await operation(index);
    measured.latencies.push(performance.now() - started);
    measured.calls.push(calls.slice(before));
  }
  return measured;
}

/** Store calls of one operation: a transaction counts once, though DynamoDB reports its units per table. */
function storeCallsOf(calls: readonly BilledCall[]): number {
  return new Set((calls as StoreCall[]).map((call) => `${call.operation}@${call.startedAt}`)).size;
}

function row({ name, latencies, calls }: Measured): (string | number)[] {
  const last = calls.at(-1)!;
  return [
    name,
    storeCallsOf(last),
    fixed(readUnits(last), 1),
    fixed(writeUnits(last), 1),
    fixed(median(latencies), 1),
    fixed(percentile(latencies, 95), 1),
  ];
}

export async function measureReservations(store: BenchStore): Promise<string> {
  const { idempotentWriter, reservations } = store.dependencies;
  const calls = recordStoreCalls(documentClientsOf(store.dependencies));
  const reserve = (petId: bigint, quantity = 1) =>
    idempotentWriter.reserve({ ...author, idempotencyKey: randomUUID(), request: { items: [{ petId, quantity }] } });
  const reservationIdOf = (result: Awaited<ReturnType<typeof reserve>>) => {
    if (!('reservation' in result.outcome)) throw new Error(`a bench reservation was refused: ${result.outcome.error.message}`);
    return result.outcome.reservation.reservationId;
  };
  // Pet 1 gets arrivals enough for every reservation below; each operation then reads and writes one pet.
  await idempotentWriter.adjust({ ...author, idempotencyKey: randomUUID(), petId: 1n, delta: 10 * SAMPLES, reason: 'arrival' });

  const adjustment = await measure('adjustment (+1)', calls, () =>
    idempotentWriter.adjust({ ...author, idempotencyKey: randomUUID(), petId: 1n, delta: 1, reason: 'arrival' }),
  );
  const reserved: string[] = [];
  const reserving = await measure('reserve (1 pet)', calls, async () => reserved.push(reservationIdOf(await reserve(1n))));
  const commit = await measure('commit (1 pet)', calls, (index) => reservations.commit(reserved[index]!, author));
  // One after another: DynamoDB Local takes one transaction of an item at a time, and a hundred at once time out on its lock.
  const toRelease: string[] = [];
  for (let index = 0; index < SAMPLES; index += 1) toRelease.push(reservationIdOf(await reserve(1n)));
  const release = await measure('release (1 pet)', calls, (index) => reservations.release(toRelease[index]!, author));

  // 60 carts race for the last 20 of pet 2, all sent at once.
  await idempotentWriter.adjust({ ...author, idempotencyKey: randomUUID(), petId: 2n, delta: 1, reason: 'arrival' });
  const entry = await store.dependencies.inventory.get(2n, { consistent: true });
  const surplus = entry!.item.available - RACED_STOCK;
  if (surplus !== 0)
    await idempotentWriter.adjust({ ...author, idempotencyKey: randomUUID(), petId: 2n, delta: -surplus, reason: 'adjustment' });
  const raceStarted = performance.now();
  const answers = await Promise.all(Array.from({ length: RACING_CARTS }, () => reserve(2n)));
  const raceMs = performance.now() - raceStarted;
  const held = answers.filter((answer) => 'reservation' in answer.outcome).length;

  return [
    '## Reservations',
    '',
    `Each operation ${SAMPLES} times in a row through the domain and the adapters (no HTTP, no authorizer, no plan limits), on DynamoDB Local in memory; one pet each. Store calls, read and write units are DynamoDB's own (\`ReturnConsumedCapacity\`; a transaction is one call, its units summed over its tables), of the last sample. Load average ${fixed(loadavg()[0]!, 2)}.`,
    '',
    table(
      ['operation', 'store calls', 'read units', 'write units', 'median ms', 'p95 ms'],
      [adjustment, reserving, commit, release].map(row),
    ),
    '',
    `**${RACING_CARTS} carts racing for ${RACED_STOCK} of one pet**, sent at once: ${held} held, ${RACING_CARTS - held} refused (INSUFFICIENT_STOCK), all answered in ${fixed(raceMs, 0)} ms.`,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const store = await startBenchStore(benchInventory(10));
  try {
    console.log(await measureReservations(store));
  } finally {
    await store.close();
  }
}
