import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { INVENTORY_PAGE_SIZE, inventoryKey } from '../functions/adapters/dynamodb/stored-inventory-item.ts';
import { createLowStockThresholdRepository } from '../functions/adapters/dynamodb/low-stock-threshold-repository.ts';
import { inventoryTable } from '../functions/adapters/dynamodb/tables.ts';
import { ENV } from '../functions/config.ts';
import { MAX_INT64 } from '../functions/domain/pet-id.ts';
import type { InventoryCount } from '../functions/domain/schemas.ts';
import { createEncoder } from '../functions/http/content-encoding.ts';
import { STREAMED_RESPONSE_LIMIT_BYTES } from '../functions/http/json-array-stream.ts';
import { flatRecordJson } from '../functions/int64-json.ts';
import { LOCAL_TABLES } from '../local/local-store.ts';
import { writeInventory } from '../local/seed.ts';
import { FUNCTION_TIMEOUT_SECONDS } from '../functions/routes.ts';
import { FUNCTION_MEMORY_MB } from '../lib/service-function.ts';
import { bundle, type LambdaBundle } from './bundle.ts';
import { DEPLOYED_NODE_FLAGS } from './cold-start.ts';
import { itemBytes } from './consumed-capacity.ts';
import { PRICES } from './prices.ts';
import { benchInventory, eachInFlight, routeEvent, routeOf, startBenchStore, STATUSES, type BenchStore } from './fixtures.ts';
import type { RawReads } from './listing/raw-reads-handler.ts';
import type { StandInStore } from './listing/stand-in-store.ts';
import { dollars, fixed, integer, mib, ms, ratio, table, verdict } from './markdown.ts';
import { interleavedRuns, runBundle, type BundleInvocation, type BundleRun } from './run-bundle.ts';

/** Listed from DynamoDB Local, loaded with pets 1…N. */
const LOCAL_SIZES = [1_000, 10_000, 100_000];
/** Listed from the stand-in store (bench/listing/stand-in-store.ts), which holds the same data without loading it. */
const STAND_IN_SIZES = [1_000_000];
const RAW_READS_ENTRY = 'bench/listing/raw-reads-handler.ts';
const STAND_IN_STORE = fileURLToPath(new URL('./listing/stand-in-store.ts', import.meta.url));
/**
 * The reorder report's data, at every size DynamoDB Local holds: every THRESHOLD_EVERY-th pet has a
 * low-stock threshold, and every BELOW_EVERY-th one a threshold above any stock it has (quantities
 * are 0–49, nothing reserved), the others 0, which nothing is below: 1% of the pets are below theirs.
 */
const THRESHOLD_EVERY = 10;
const BELOW_EVERY = 100;
const THRESHOLD_ABOVE_STOCK = 50;
const THRESHOLD_WRITES_IN_FLIGHT = 16;
/** The first invocation pays for the cold process; the second, a warm instance, is the one measured. */
const INVOCATIONS = 2;
/** Raw reads and listing run in turn this many times and the median of each is kept: a slow moment of the machine touches both alike. */
const REPEATS = 3;
const TARGETS = { rssAtLargestOverSmallest: 1.5, totalOverRawReads: 1.3, firstByteOverFirstPages: 2 } as const;
/** Entries with random 19-digit ids, to see how the longest ids compress (sorted, as the listing sends them). */
const LONG_ID_SAMPLE = 100_000;

/**
 * V8's heap limits as Lambda's Node.js runtime sets them for a function's memory (its
 * /var/runtime/bootstrap: a tenth of the memory for the young generation, half of that per
 * semi-space, the rest for the old generation): for 1,024 MB, 51 MB and 922 MB.
 */
function lambdaHeapFlags(memoryMb: number): string[] {
  const newSpace = Math.floor(memoryMb / 10);
  return [`--max-semi-space-size=${Math.floor(newSpace / 2)}`, `--max-old-space-size=${memoryMb - newSpace}`];
}
const DEPLOYED_FLAGS = [...DEPLOYED_NODE_FLAGS, ...lambdaHeapFlags(FUNCTION_MEMORY_MB)];
/** A heap far below the runtime's: a listing that held more than a few pages per shard would run out of it. */
const BOUNDED_HEAP = { semiSpaceMb: 2, oldSpaceMb: 64 } as const;
const BOUNDED_FLAGS = [
  ...DEPLOYED_NODE_FLAGS,
  `--max-semi-space-size=${BOUNDED_HEAP.semiSpaceMb}`,
  `--max-old-space-size=${BOUNDED_HEAP.oldSpaceMb}`,
];

interface SizeResult {
  pets: number;
  store: string;
  load: string;
  raw: { reads: RawReads; warm: BundleInvocation; peakRssBytes: number };
  plain: Measured;
  gzip: Measured;
  /** The listing as sent, in the bounded heap. */
  bounded: Measured;
  /** The reorder report (`?lowStock=true`) of the same inventory, and its reads alone. */
  report?: Measured & { reads: RawReads };
}

interface Measured {
  warm: BundleInvocation;
  peakRssBytes: number;
}

/**
 * Runs a TypeScript module of the bench in a process of its own (so that it does not share the
 * measured processes' or the bench's event loop), waits for the first message it sends over
 * IPC, and stops it by disconnecting, which the module answers by exiting.
 */
async function startIpcChild<Message>(script: string, args: readonly string[]): Promise<{ message: Message; stop: () => Promise<void> }> {
  // Its standard output is dropped (a server's request logs still cost their writes); errors show.
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const [message] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(() => Promise.reject(new Error(`${script} exited before it was ready`))),
  ])) as [Message];
  return {
    message,
    stop: async () => {
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    },
  };
}

const warmOf = (run: BundleRun) => run.invocations.at(-1)!;

/** The run whose warm invocation took the median time (REPEATS is odd), its figures kept together. */
function medianRun(runs: readonly BundleRun[]): Measured {
  const run = [...runs].sort((a, b) => warmOf(a).ms - warmOf(b).ms)[Math.floor(runs.length / 2)]!;
  return { warm: warmOf(run), peakRssBytes: run.peakRssBytes };
}

/** The raw reads, then the listing as sent and gzipped, each in fresh processes against the same store. */
async function measureSize(
  pets: number,
  store: string,
  load: string,
  env: Record<string, string>,
  benchStore: BenchStore,
  bundles: { list: string; raw: string },
  withReport: boolean,
): Promise<SizeResult> {
  const options = { env, nodeFlags: DEPLOYED_FLAGS, invocations: INVOCATIONS };
  const event = routeEvent(routeOf('listInventory'), benchStore.keyRecord);
  const reportEvent = { ...event, queryStringParameters: { lowStock: 'true' }, multiValueQueryStringParameters: { lowStock: ['true'] } };
  const runs = await interleavedRuns(REPEATS, [
    { name: 'raw', file: bundles.raw, event: () => ({}), options },
    { name: 'plain', file: bundles.list, event: () => event, options },
    ...(withReport ? [{ name: 'report', file: bundles.list, event: () => reportEvent, options }] : []),
  ]);
  const [rawRuns, plainRuns, reportRuns] = [runs.get('raw')!, runs.get('plain')!, runs.get('report') ?? []];
  const gzip = await runBundle(bundles.list, { ...event, headers: { 'Accept-Encoding': 'gzip' } }, options);
  const bounded = await runBundle(bundles.list, event, { ...options, nodeFlags: BOUNDED_FLAGS });
  const raw = medianRun(rawRuns);
  const reads = JSON.parse(raw.warm.smallBody ?? '{}') as RawReads;
  const listings = {
    listing: plainRuns,
    'gzipped listing': [gzip],
    'listing in the bounded heap': [bounded],
    'reorder report': reportRuns,
  };
  for (const [name, runs] of Object.entries(listings)) {
    const failed = runs.map(warmOf).find((warm) => warm.outcome !== '200');
    if (failed) throw new Error(`The ${name} of ${pets} pets answered ${failed.outcome}.`);
  }
  if (reads.entries !== pets) throw new Error(`The raw reads found ${reads.entries} of ${pets} pets.`);
  const measured = {
    pets,
    store,
    load,
    raw: { reads, ...raw },
    plain: medianRun(plainRuns),
    gzip: medianRun([gzip]),
    bounded: medianRun([bounded]),
  };
  if (!withReport) return measured;
  const reportReads = JSON.parse(warmOf(await runBundle(bundles.raw, { lowStockOnly: true }, options)).smallBody ?? '{}') as RawReads;
  if (reportReads.entries !== pets / BELOW_EVERY)
    throw new Error(`The reorder report's reads found ${reportReads.entries} pets below their threshold of ${pets / BELOW_EVERY}.`);
  return { ...measured, report: { ...medianRun(reportRuns), reads: reportReads } };
}

/** The thresholds of pets first…last (see THRESHOLD_EVERY), through the service's own repository, a few writes in flight. */
async function setThresholds(store: BenchStore, first: number, last: number): Promise<void> {
  const thresholds = createLowStockThresholdRepository(store.dependencies.client, LOCAL_TABLES.inventoryTable);
  const petIds: number[] = [];
  for (let petId = first; petId <= last; petId += 1) if (petId % THRESHOLD_EVERY === 0) petIds.push(petId);
  await eachInFlight(petIds, THRESHOLD_WRITES_IN_FLIGHT, (petId) =>
    thresholds.set(BigInt(petId), petId % BELOW_EVERY === 0 ? THRESHOLD_ABOVE_STOCK : 0),
  );
}

/** The size, by DynamoDB's rules, of what a stored entry holds beyond the attributes the stand-in store answers and bills itself. */
async function storedAttributeBytesBeyondAnswered(store: BenchStore, petId: bigint): Promise<number> {
  const { Item } = await store.dependencies.client.send(
    new GetCommand({ TableName: LOCAL_TABLES.inventoryTable, Key: inventoryKey(petId) }),
  );
  if (!Item) throw new Error(`pet ${petId} is not in DynamoDB Local`);
  const { shard, petId: _petId, quantity, status, available, ...others } = Item;
  return itemBytes(others);
}

/** Bytes per entry of a listing of `items`, batch by batch as the function writes them, gzipped the same way. */
async function gzippedBytesPerEntry(items: readonly InventoryCount[]): Promise<number> {
  const encoder = createEncoder('gzip');
  let bytes = 0;
  encoder.on('data', (chunk: Buffer) => (bytes += chunk.length));
  for (let start = 0; start < items.length; start += INVENTORY_PAGE_SIZE) {
    encoder.write(
      `${start === 0 ? '[' : ','}${items
        .slice(start, start + INVENTORY_PAGE_SIZE)
        .map(flatRecordJson)
        .join(',')}`,
    );
  }
  encoder.end(']');
  await once(encoder, 'end');
  return bytes / items.length;
}

/** Random 19-digit ids (a fixed sequence), sorted as the listing sends them, with the bench's quantities and statuses. */
function longIdInventory(count: number): InventoryCount[] {
  let state = 0x2545f4914f6cdd1dn;
  const ids = new Set<bigint>();
  while (ids.size < count) {
    state = BigInt.asUintN(64, state * 6_364_136_223_846_793_005n + 1_442_695_040_888_963_407n);
    ids.add(1_000_000_000_000_000_000n + (state % (MAX_INT64 - 1_000_000_000_000_000_000n)));
  }
  return [...ids]
    .sort((a, b) => (a < b ? -1 : 1))
    .map((petId, index) => ({ petId, quantity: index % 50, status: STATUSES[index % STATUSES.length]! }));
}

/** The longest entry there can be: a 19-digit id, the largest quantity, the longest status, and its comma. */
const LONGEST_ENTRY_BYTES = Buffer.byteLength(`${flatRecordJson({ petId: MAX_INT64, quantity: 2_147_483_647, status: 'available' })},`);

/**
 * Section 3: listInventory of the deployed bundle over 1,000 to 1,000,000 pets, each next to a
 * baseline of the same ordered reads without serialization, in the same process layout.
 */
export async function measureListingAtScale(listBundle: LambdaBundle, bundleDir: string): Promise<string> {
  const raw = await bundle(RAW_READS_ENTRY, bundleDir, 'raw-reads');
  const bundles = { list: listBundle.file, raw: raw.file };
  const results: SizeResult[] = [];
  const store = await startBenchStore([]);
  try {
    let loaded = 0;
    for (const pets of LOCAL_SIZES) {
      const loadStartedAt = performance.now();
      await writeInventory(store.dependencies.client, LOCAL_TABLES.inventoryTable, benchInventory(pets - loaded, BigInt(loaded + 1)));
      await setThresholds(store, loaded + 1, pets);
      const load = `${fixed((performance.now() - loadStartedAt) / 1_000, 1)} s (+${integer(pets - loaded)})`;
      loaded = pets;
      results.push(await measureSize(pets, 'DynamoDB Local', load, store.functionEnv, store, bundles, true));
    }
    // The stand-in bills each entry as large as DynamoDB Local stores it: pet 1's version and last change, as loaded above.
    const otherAttributeBytes = await storedAttributeBytesBeyondAnswered(store, 1n);
    for (const pets of STAND_IN_SIZES) {
      const standIn = await startIpcChild<StandInStore>(STAND_IN_STORE, [String(pets), String(otherAttributeBytes)]);
      try {
        results.push(
          await measureSize(
            pets,
            'stand-in',
            '—',
            { ...store.functionEnv, [ENV.dynamodbEndpoint]: standIn.message.endpoint },
            store,
            bundles,
            false,
          ),
        );
      } finally {
        await standIn.stop();
      }
    }
  } finally {
    await store.close();
  }

  const smallest = results[0]!;
  const largest = results.at(-1)!;
  const rssRatio = largest.bounded.peakRssBytes / smallest.bounded.peakRssBytes;
  const deployedRssRatio = largest.plain.peakRssBytes / smallest.plain.peakRssBytes;
  const misses: string[] = [];
  if (rssRatio > TARGETS.rssAtLargestOverSmallest)
    misses.push(`peak RSS at ${integer(largest.pets)} pets is ${ratio(rssRatio)} the RSS at ${integer(smallest.pets)}`);
  const timeRows = results.map((result) => {
    const { reads } = result.raw;
    const totalRatio = result.plain.warm.ms / result.raw.warm.ms;
    const firstByteRatio = result.plain.warm.firstByteMs! / reads.firstBatchMs;
    if (totalRatio > TARGETS.totalOverRawReads)
      misses.push(`total time at ${integer(result.pets)} pets is ${ratio(totalRatio)} the raw reads'`);
    if (firstByteRatio > TARGETS.firstByteOverFirstPages)
      misses.push(`first byte at ${integer(result.pets)} pets is ${ratio(firstByteRatio)} the first pages' read time`);
    return [
      integer(result.pets),
      result.store,
      ms(reads.firstBatchMs),
      ms(result.raw.warm.ms),
      ms(result.plain.warm.firstByteMs!),
      ms(result.plain.warm.ms),
      ms(result.gzip.warm.ms),
      `${ratio(totalRatio)} (${verdict(totalRatio <= TARGETS.totalOverRawReads, ratio(totalRatio - TARGETS.totalOverRawReads))})`,
      ratio(result.plain.warm.cpuMs / result.raw.warm.cpuMs),
      `${ratio(firstByteRatio)} (${verdict(firstByteRatio <= TARGETS.firstByteOverFirstPages, ratio(firstByteRatio - TARGETS.firstByteOverFirstPages))})`,
      mib(result.raw.peakRssBytes),
      mib(result.plain.peakRssBytes),
      mib(result.gzip.peakRssBytes),
      `${mib(result.bounded.peakRssBytes)} (${ms(result.bounded.warm.ms)})`,
    ];
  });
  // Wall time over the target while the listing's own CPU time is within it: the gap is waiting for the machine.
  const slowWallTimes = results.filter(
    (result) =>
      result.plain.warm.ms / result.raw.warm.ms > TARGETS.totalOverRawReads &&
      result.plain.warm.cpuMs / result.raw.warm.cpuMs <= TARGETS.totalOverRawReads,
  );
  const explainWallTime = (slow: readonly SizeResult[]) =>
    `At ${slow.map((result) => `${integer(result.pets)} pets`).join(' and ')} the listing's own CPU time is ${slow.map((result) => ratio(result.plain.warm.cpuMs / result.raw.warm.cpuMs)).join(' and ')} the raw reads': the rest of the wall-time gap is time spent waiting for the machine's cores (shared, at the load average above), which the serialization does not explain.`;
  const costRows = results.map((result) => {
    const { reads } = result.raw;
    return [
      integer(result.pets),
      result.load,
      integer(reads.queries),
      fixed(reads.readUnits, 1),
      fixed((1_000 * reads.readUnits) / result.pets, 2),
      dollars((reads.readUnits * PRICES.usdPerMillionReadUnits) / 1_000_000),
      integer(result.plain.warm.bodyBytes),
      integer(result.gzip.warm.bodyBytes),
      fixed(result.plain.warm.bodyBytes / result.pets, 1),
      fixed(result.gzip.warm.bodyBytes / result.pets, 2),
    ];
  });

  // The plain listing's own figures are the time and cost tables'; this one puts the report beside them.
  const reportRows = results.flatMap(({ pets, plain, report }) =>
    report
      ? [
          [
            integer(pets),
            integer(report.reads.entries),
            ms(report.warm.firstByteMs!),
            ms(report.warm.ms),
            ratio(report.warm.ms / plain.warm.ms),
            mib(report.peakRssBytes),
            fixed(report.reads.readUnits, 1),
            integer(report.warm.bodyBytes),
          ],
        ]
      : [],
  );

  const longIdGzip = await gzippedBytesPerEntry(longIdInventory(LONG_ID_SAMPLE));
  const plainPerEntry = largest.plain.warm.bodyBytes / largest.pets;
  const gzipPerEntry = largest.gzip.warm.bodyBytes / largest.pets;
  const petsWithin = (bytesPerEntry: number) => integer(Math.floor(STREAMED_RESPONSE_LIMIT_BYTES / bytesPerEntry));
  const gzipPetsPerSecond = largest.pets / (largest.gzip.warm.ms / 1_000);
  const plainPetsPerSecond = largest.pets / (largest.plain.warm.ms / 1_000);

  return [
    '## 3. Listing at scale',
    '',
    `listInventory of the deployed bundle (\`${listBundle.name}\`, with \`--enable-source-maps\` as deployed), invoked as Lambda's runtime invokes a streamed handler, in a fresh Node process per size and variant: ${LOCAL_SIZES.map(integer).join(', ')} pets from DynamoDB Local (pets 1…N, quantities 0–49, statuses in turn, loaded through the seed's putMany), and ${STAND_IN_SIZES.map(integer).join(', ')} from a **stand-in store**: a small HTTP server in its own process that answers each shard's Queries with the same ordered pages of the same data, in DynamoDB's wire format (Limit, ExclusiveStartKey, LastEvaluatedKey, ConsumedCapacity by DynamoDB's item-size rules, each entry as large as DynamoDB Local stores it: pet 1's version and last change, read after the loads, beside what the listing answers), because DynamoDB Local would take minutes to load a million items and more heap than the bench gives it. Each process invokes twice; the figures are the second, warm invocation, as a warm Lambda instance would serve it. The raw reads and the listing run in turn ${REPEATS} times per size, and each keeps its median run; the gzipped and bounded-heap listings run once. *CPU time* is the process's own (user and system) during the invocation, which other work on the machine does not inflate as it inflates wall time. The **baseline** is the raw ordered reads: a bundled function (bench/listing/raw-reads-handler.ts) run the same way against the same store, reading every entry through the service's own repository (the ${inventoryTable.shards} shards' consistent Queries of ${integer(INVENTORY_PAGE_SIZE)} items, merged) without handler, plan limits, serialization or response stream; its *first batch* is the time to the first merged entries, which needs every shard's first page: no listing can send an entry sooner. *First byte* is the listing's first write to its response stream (the prelude: status and headers, rate-limit headers included), sent with the first batch. *Peak RSS* is the process's maximum resident memory over both invocations. Every process runs with the deployed function's flags: \`--enable-source-maps\` and the heap limits Lambda's Node.js runtime sets for its ${integer(FUNCTION_MEMORY_MB)} MB (\`${lambdaHeapFlags(FUNCTION_MEMORY_MB).join(' ')}\`).`,
    '',
    table(
      [
        'Pets',
        'Store',
        'Raw reads: first batch',
        'Raw reads: total',
        'Listing: first byte',
        'Listing: total',
        'Listing gzipped: total',
        `Total ÷ raw (≤ ${TARGETS.totalOverRawReads}×)`,
        'CPU time ÷ raw',
        `First byte ÷ first batch (≤ ${TARGETS.firstByteOverFirstPages}×)`,
        'Peak RSS: raw reads',
        'Peak RSS: listing',
        'Peak RSS: gzipped',
        `Peak RSS (and total) of the listing in a ${BOUNDED_HEAP.oldSpaceMb} MB heap`,
      ],
      timeRows,
    ),
    '',
    `**Memory.** The listing holds at most two Query pages per shard and a batch of text, whatever the inventory; what it allocates beyond that is garbage. Under the runtime's heap limits V8 does not collect that garbage as soon as it could: it lets the heap grow with the allocation rate, up to limits far above the live data, so the peak RSS of a long listing says more about V8's policy than about what the listing keeps, and the raw reads grow alike (${mib(smallest.plain.peakRssBytes)} at ${integer(smallest.pets)} pets, ${mib(largest.plain.peakRssBytes)} at ${integer(largest.pets)}: ${ratio(deployedRssRatio)}, the raw reads ${ratio(largest.raw.peakRssBytes / smallest.raw.peakRssBytes)}). The last column runs the same listing with V8 held to a ${BOUNDED_HEAP.semiSpaceMb} MB semi-space and a ${BOUNDED_HEAP.oldSpaceMb} MB old generation (\`--max-semi-space-size=${BOUNDED_HEAP.semiSpaceMb} --max-old-space-size=${BOUNDED_HEAP.oldSpaceMb}\`), which could not hold a million entries, let alone their text: the listing completes every size in it, and its peak RSS at ${integer(largest.pets)} pets is ${mib(largest.bounded.peakRssBytes)}, ${ratio(rssRatio)} its ${mib(smallest.bounded.peakRssBytes)} at ${integer(smallest.pets)} (target ≤ ${TARGETS.rssAtLargestOverSmallest}×: ${verdict(rssRatio <= TARGETS.rssAtLargestOverSmallest, ratio(rssRatio - TARGETS.rssAtLargestOverSmallest))}), at the cost of more frequent collections.`,
    '',
    misses.length === 0
      ? 'Every target is met.'
      : `**Targets missed**: ${misses.join('; ')}.${slowWallTimes.length > 0 ? ` ${explainWallTime(slowWallTimes)}` : ''}`,
    '',
    `**The reorder report** (\`GET /v1/inventory?lowStock=true\`), at each size DynamoDB Local holds, beside the plain listing of the same inventory in the same run (its baseline: the listing's time, memory and read units are the tables' above and below): every ${THRESHOLD_EVERY}th pet has a low-stock threshold and every ${BELOW_EVERY}th is below it (a threshold of ${THRESHOLD_ABOVE_STOCK} against stocks of 0–49; the others 0), so the report answers 1% of the pets; the thresholds are set through the service's repository after each load (the Load column below includes them), so the plain listing reads them too. The report reads the same shard Queries with a filter that keeps the entries with a threshold, and keeps of those the ones below it; run in turn with the listing and the raw reads, ${REPEATS} times, its median run. Its read units are its own reads' (the raw-reads function with the report's filter): DynamoDB bills a Query by the items it reads, before any filter. The ${STAND_IN_SIZES.map(integer).join(', ')}-pet stand-in store answers no filter, so the report has no row there.`,
    '',
    table(
      [
        'Pets',
        'Below their threshold',
        'Report: first byte',
        'Report: total',
        'Report ÷ listing (total)',
        'Peak RSS: report',
        'Read units: report',
        'Report body (bytes)',
      ],
      reportRows,
    ),
    '',
    `**Bytes and read cost.** Read units are DynamoDB's ConsumedCapacity of the raw reads (DynamoDB Local's own count; the stand-in's by the same rules: an item's attribute names and values, the whole stored item, not only what the projection answers, summed per page, rounded up to 4 KB, 1 unit per 4 KB for a strongly consistent read; the stand-in's entries carry no low-stock threshold, which a tenth of DynamoDB Local's do); the listing reads the same pages. Priced at $${PRICES.usdPerMillionReadUnits} per million read request units (on-demand, ${PRICES.region}, as in section 4).`,
    '',
    table(
      [
        'Pets',
        'Load',
        'Queries',
        'Read units',
        'Read units per 1,000 pets',
        '$ per listing (reads)',
        'Body (bytes)',
        'Body gzipped (bytes)',
        'Bytes per pet',
        'Bytes per pet, gzipped',
      ],
      costRows,
    ),
    '',
    `**Ceilings.** A streamed answer stops at Lambda's 200 MB (the function cuts it at ${integer(STREAMED_RESPONSE_LIMIT_BYTES)} bytes, logged and counted as StreamAborted): with this data (ids of up to ${String(largest.pets).length} digits, ${fixed(plainPerEntry, 1)} bytes per pet) that is **${petsWithin(plainPerEntry)} pets** uncompressed; with 19-digit ids at worst (${LONGEST_ENTRY_BYTES} bytes for \`{"petId":9223372036854775807,"quantity":2147483647,"status":"available"},\`) **${petsWithin(LONGEST_ENTRY_BYTES)} pets**. Gzipped, an entry takes ${fixed(gzipPerEntry, 2)} bytes with this data and ${fixed(longIdGzip, 2)} with random 19-digit ids (${integer(LONG_ID_SAMPLE)} of them, sorted), so 200 MB would hold ${petsWithin(gzipPerEntry)} and ${petsWithin(longIdGzip)} pets: there the ${FUNCTION_TIMEOUT_SECONDS.streamed} s function timeout binds first. This machine listed ${integer(plainPetsPerSecond)} pets a second uncompressed and ${integer(gzipPetsPerSecond)} gzipped (the largest row), which puts the timeout near ${integer((gzipPetsPerSecond * FUNCTION_TIMEOUT_SECONDS.streamed) / 1_000_000)} million pets gzipped; a Lambda function of ${integer(FUNCTION_MEMORY_MB)} MB has about 0.6 of a vCPU, and API Gateway passes 2 MB/s after the first 10 MB, so count on less there.`,
  ].join('\n');
}
