/**
 * Reservations: what a reserve, a commit and a release cost beside an adjustment (store calls,
 * read and write units computed from the items' sizes, latency through the domain and the store),
 * and 60 carts racing for the last 20 of one pet (the time until all are answered).
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import type { ServiceDependencies } from '../local/service-dependencies.ts';
import { distinctCalls, readUnits, type StoreCall, writeUnits } from './consumed-capacity.ts';
import { type BenchStore, heldReservation, sizedStoreCalls } from './fixtures.ts';
import { fixed, table } from './markdown.ts';
import { median, percentile } from './stats.ts';

/** Samples of each operation, one after another. */
const SAMPLES = 100;
/**
 * The sample whose store calls and units are reported, through a client that sizes every item
 * it reads and writes (which slows it, so its latency is not counted): the middle one, a typical
 * pet's (see HELD_PETS).
 */
const SIZED_SAMPLE = SAMPLES / 2;
/**
 * Reservations go to these pets in turn, so each holds at most SAMPLES / HELD_PETS at once: each
 * hold is an attribute of the pet's entry, and a transactional write is billed by the entry's size.
 */
const FIRST_HELD_PET = 3n;
const HELD_PETS = 20;
/** The race: carts of one each, against this much stock of one pet. */
const RACING_CARTS = 60;
const RACED_STOCK = 20;
const ADJUSTED_PET = 1n;
const RACED_PET = 2n;
const author = { requestId: 'bench-request', keyId: 'key_bench' };

interface Measured {
  name: string;
  latencies: number[];
  /** The store calls of SIZED_SAMPLE, billed as computed from the items' sizes. */
  calls: StoreCall[];
}

const heldPet = (index: number) => FIRST_HELD_PET + BigInt(index % HELD_PETS);

/**
 * Runs `operation` SAMPLES times one after another through the store's dependencies, recording
 * each one's latency, but SIZED_SAMPLE through `sized`, recording its store calls.
 */
async function measure(
  name: string,
  store: ServiceDependencies,
  sized: { dependencies: ServiceDependencies; calls: StoreCall[] },
  operation: (dependencies: ServiceDependencies, index: number) => Promise<unknown>,
): Promise<Measured> {
  const measured: Measured = { name, latencies: [], calls: [] };
  for (let index = 0; index < SAMPLES; index += 1) {
    if (index === SIZED_SAMPLE) {
      sized.calls.length = 0;
      await operation(sized.dependencies, index);
      measured.calls = [...sized.calls];
      continue;
    }
    const started = performance.now();
    await operation(store, index);
    measured.latencies.push(performance.now() - started);
  }
  return measured;
}

function row({ name, latencies, calls }: Measured): (string | number)[] {
  return [
    name,
    distinctCalls(calls).length,
    fixed(readUnits(calls), 1),
    fixed(writeUnits(calls), 1),
    fixed(median(latencies), 1),
    fixed(percentile(latencies, 95), 1),
  ];
}

export async function measureReservations(store: BenchStore): Promise<string> {
  const dependencies = store.dependencies;
  const sized = sizedStoreCalls(store.endpoint);
  const reserve = ({ idempotentWriter }: ServiceDependencies, petId: bigint) =>
    idempotentWriter.reserve({ ...author, idempotencyKey: randomUUID(), request: { items: [{ petId, quantity: 1 }] } });
  const arrival = (petId: bigint, delta: number) =>
    dependencies.idempotentWriter.adjust({ ...author, idempotencyKey: randomUUID(), petId, delta, reason: 'arrival' });
  try {
    // Stock enough for every reservation below; each operation then reads and writes one pet.
    for (let index = 0; index < HELD_PETS; index += 1) await arrival(heldPet(index), SAMPLES);

    const adjustment = await measure('adjustment (+1)', dependencies, sized, ({ idempotentWriter }) =>
      idempotentWriter.adjust({ ...author, idempotencyKey: randomUUID(), petId: ADJUSTED_PET, delta: 1, reason: 'arrival' }),
    );
    const reserved: string[] = [];
    const reserving = await measure('reserve (1 pet)', dependencies, sized, async (through, index) =>
      reserved.push(await heldReservation(through, author.keyId, heldPet(index))),
    );
    const commit = await measure('commit (1 pet)', dependencies, sized, ({ reservations }, index) =>
      reservations.commit(reserved[index]!, author),
    );
    // One after another: DynamoDB Local takes one transaction of an item at a time, and a hundred at once time out on its lock.
    const toRelease: string[] = [];
    for (let index = 0; index < SAMPLES; index += 1) toRelease.push(await heldReservation(dependencies, author.keyId, heldPet(index)));
    const release = await measure('release (1 pet)', dependencies, sized, ({ reservations }, index) =>
      reservations.release(toRelease[index]!, author),
    );

    // 60 carts race for the last 20 of one pet, all sent at once.
    await arrival(RACED_PET, 1);
    const entry = await dependencies.inventory.get(RACED_PET, { consistent: true });
    const surplus = entry!.item.available - RACED_STOCK;
    if (surplus !== 0)
      await dependencies.idempotentWriter.adjust({
        ...author,
        idempotencyKey: randomUUID(),
        petId: RACED_PET,
        delta: -surplus,
        reason: 'adjustment',
      });
    const raceStarted = performance.now();
    const answers = await Promise.all(Array.from({ length: RACING_CARTS }, () => reserve(dependencies, RACED_PET)));
    const raceMs = performance.now() - raceStarted;
    const held = answers.filter((answer) => 'reservation' in answer.outcome).length;

    return [
      '## Reservations',
      '',
      `Each operation ${SAMPLES} times in a row through the domain and the adapters (no HTTP, no authorizer, no plan limits), on DynamoDB Local in memory; one pet and one item each. The reservations go to ${HELD_PETS} pets in turn, so that no pet holds more than ${SAMPLES / HELD_PETS} at once (each hold is an attribute of the pet's entry, which a transactional write is billed by): a typical reservation's cost, not that of a pet holding a hundred. **Store calls and units are those of sample ${SIZED_SAMPLE + 1}** (the reserve's pet already held ${Math.floor(SIZED_SAMPLE / HELD_PETS)} of the run's reservations), whose calls went through a client that reads every item they touch, before and after, to size it (so its latency is left out). The units are computed from those sizes by DynamoDB's rules, as section 6 computes the history's (bench/consumed-capacity.ts, \`itemBytes\`): a read 1 unit per 4 KB (strongly consistent), a write 1 unit per KB of the larger of the item before and after, each doubled in a transaction (every item a TransactWriteItems writes costs 2 units per KB); DynamoDB Local's own \`ReturnConsumedCapacity\` does not bill transactions that way. A transaction is one store call. Median and p95 of the other ${SAMPLES - 1} samples. Load average (1 min) ${fixed(loadavg()[0]!, 2)} at the end.`,
      '',
      table(
        ['operation', 'store calls', 'read units', 'write units', 'median ms', 'p95 ms'],
        [adjustment, reserving, commit, release].map(row),
      ),
      '',
      `**${RACING_CARTS} carts racing for ${RACED_STOCK} of one pet**, sent at once: ${held} held, ${RACING_CARTS - held} refused (INSUFFICIENT_STOCK), all answered in ${fixed(raceMs, 0)} ms.`,
    ].join('\n');
  } finally {
    sized.close();
  }
}
