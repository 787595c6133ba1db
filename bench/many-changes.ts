import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDocumentClient } from '../functions/adapters/dynamodb/document-client.ts';
import { createInventoryRepository, IMPORT_WRITES_IN_FLIGHT, inventoryKey } from '../functions/adapters/dynamodb/inventory-repository.ts';
import { TOOL_KEY_IDS, toolAttribution } from '../functions/domain/change-attribution.ts';
import { MAX_BATCH_CHANGES } from '../functions/domain/inventory-adjustments.ts';
import type { InventoryItem } from '../functions/domain/schemas.ts';
import { createAuthorizerHandler } from '../functions/handlers/authorizer-handler.ts';
import { createHttpHandlers } from '../local/http-handlers.ts';
import { toJson } from '../functions/http/json.ts';
import { runInventoryCommand } from '../tools/inventory-tool/cli.ts';
import { formatInventoryFile } from '../tools/inventory-tool/inventory-file.ts';
import { createServiceTables, LOCAL_TABLES, startLocalStore } from '../local/local-store.ts';
import { readUnits, recordStoreCalls, writeUnits, type StoreCall } from './consumed-capacity.ts';
import { PRICES } from './cost-per-call.ts';
import {
  authorizerEvent,
  benchInventory,
  documentClientsOf,
  invokeWhole,
  lambdaContext,
  routeEvent,
  routeOf,
  type BenchStore,
} from './fixtures.ts';
import { dollars, fixed, integer, table, verdict } from './markdown.ts';

/**
 * Section 6: many changes at once. A delivery of 100 arrivals as single adjustments against the
 * fewest batches, through the service's own handlers and authorizer; and the operators' import,
 * before (BatchWriteItem of 25, one call after another, as at commit dc8d754) and after
 * (versioned UpdateItems, several in flight), into DynamoDB Local on disk and in memory.
 */

const ARRIVALS = 100;
/** The delivery's pets: after the 100 pets sections 1 and 5 read. */
const FIRST_DELIVERED_PET = 1_001n;
/** The import target of the issue: 100,000 pets into the on-disk store in at most 60 s. */
const IMPORT_TARGET = { pets: 100_000, seconds: 60 } as const;
/** Pets per import run without --import-100k. */
const ON_DISK_PETS = 2_000;
const IN_MEMORY_PETS = 10_000;

/** Actions of each TransactWriteItems a run sent: DynamoDB Local reports a transaction's capacity per table, AWS bills 2 write units per action. */
const TRANSACTION_WRITE_UNITS_PER_ACTION = 2;

/** Write units as AWS bills them: the transactions' from their actions (items under 1 KB), the rest as recorded. */
const billedWriteUnits = (run: DeliveryRun) =>
  writeUnits(run.calls.filter((call) => call.operation !== 'TransactWriteItems')) +
  TRANSACTION_WRITE_UNITS_PER_ACTION * run.transactionActions;

/** The run's units at on-demand prices (dollars per million units), over its changes: dollars per million changes. */
const usdPerMillionChanges = (run: DeliveryRun) =>
  (readUnits(run.calls) * PRICES.usdPerMillionReadUnits + billedWriteUnits(run) * PRICES.usdPerMillionWriteUnits) / ARRIVALS;

interface DeliveryRun {
  name: string;
  requests: number;
  wallMs: number;
  calls: StoreCall[];
  transactionActions: number;
}

type DeliveryRequest = { operationId: 'adjustInventory' | 'adjustInventoryBatch'; body: unknown; petId?: bigint };

/** Sends requests one after another, as a terminal would, each authorized as API Gateway does, recording the store calls of each run. */
function deliveries(store: BenchStore) {
  const handlers = createHttpHandlers(store.dependencies);
  const authorizer = createAuthorizerHandler(store.dependencies);
  const calls = recordStoreCalls(documentClientsOf(store.dependencies));
  let transactionActions = 0;
  store.dependencies.client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteCommand')
        transactionActions += (args.input as { TransactItems?: unknown[] }).TransactItems?.length ?? 0;
      return next(args);
    },
    { step: 'initialize', name: 'benchTransactionActions' },
  );
  const context = lambdaContext();
  return async (name: string, requests: readonly DeliveryRequest[]): Promise<DeliveryRun> => {
    calls.length = 0;
    transactionActions = 0;
    const started = performance.now();
    for (const { operationId, body, petId } of requests) {
      await authorizer(authorizerEvent(store.apiKey), context);
      const event = routeEvent(routeOf(operationId), store.keyRecord, String(petId ?? 1n));
      const keyed = { ...event, body: toJson(body), headers: { ...event.headers, 'Idempotency-Key': randomUUID() } };
      const answer = (await invokeWhole(handlers[operationId], keyed, context)) as { statusCode: number; body: string };
      if (answer.statusCode !== 200) throw new Error(`${name}: ${operationId} answered ${answer.statusCode} ${answer.body}`);
    }
    return { name, requests: requests.length, wallMs: performance.now() - started, calls: [...calls], transactionActions };
  };
}

async function measureDelivery(store: BenchStore): Promise<string> {
  await createInventoryRepository(store.dependencies.client, LOCAL_TABLES.inventoryTable).putMany(
    benchInventory(ARRIVALS, FIRST_DELIVERED_PET),
    toolAttribution('seed', TOOL_KEY_IDS.seed),
  );
  const arrivals = Array.from({ length: ARRIVALS }, (_, index) => ({
    petId: FIRST_DELIVERED_PET + BigInt(index),
    delta: (index % 5) + 1,
    reason: 'arrival',
  }));
  const inBatches = (size: number) =>
    Array.from({ length: Math.ceil(ARRIVALS / size) }, (_, index) => ({
      operationId: 'adjustInventoryBatch' as const,
      body: { adjustments: arrivals.slice(index * size, (index + 1) * size) },
    }));
  const deliver = deliveries(store);
  const runs = [
    await deliver(
      `${ARRIVALS} single adjustments (\`adjustInventory\`)`,
      arrivals.map(({ petId, delta, reason }) => ({ operationId: 'adjustInventory' as const, body: { delta, reason }, petId })),
    ),
    await deliver(`2 batches of ${ARRIVALS / 2} (\`adjustInventoryBatch\`)`, inBatches(ARRIVALS / 2)),
    await deliver(`2 batches, ${MAX_BATCH_CHANGES} and ${ARRIVALS - MAX_BATCH_CHANGES} (the fewest)`, inBatches(MAX_BATCH_CHANGES)),
  ];
  const [singles] = runs;
  const row = (run: DeliveryRun) => [
    run.name,
    integer(run.requests),
    `${fixed(run.wallMs, 0)} ms`,
    `${fixed(run.wallMs / singles!.wallMs, 2)}×`,
    integer(run.calls.length),
    fixed(readUnits(run.calls), 1),
    fixed(billedWriteUnits(run), 1),
    dollars(usdPerMillionChanges(run)),
  ];
  const tableCalls = (run: DeliveryRun) => {
    const counts = new Map<string, number>();
    for (const call of run.calls) counts.set(call.operation, (counts.get(call.operation) ?? 0) + 1);
    return [...counts].map(([operation, count]) => `${operation} ×${count}`).join(', ');
  };
  return [
    `**${ARRIVALS} arrivals, single against batched.** The handlers and the authorizer in this process against the bench's in-memory DynamoDB Local, one request after another (as one terminal sends them), each request authorized and counted against the plan as on AWS; store calls and capacity recorded as in section 5, but a transaction's write units counted as AWS bills them (2 per action; DynamoDB Local reports 2 per table whatever the number of actions), priced at on-demand ${PRICES.region}. A batch holds at most ${MAX_BATCH_CHANGES} changes (one transaction of 100 actions: one per change and the key's record), so ${ARRIVALS} arrivals take two. Lambda and API Gateway charges are not included; they are per request, so a batch saves them too.`,
    '',
    table(
      [
        'Delivery of 100 arrivals',
        'Requests against the plan',
        'Wall time',
        'vs singles',
        'Store calls',
        'Read units',
        'Write units',
        '$ per 100 changes',
      ],
      runs.map(row),
    ),
    '',
    ...runs.map((run) => `- ${run.name}: ${tableCalls(run)}.`),
  ].join('\n');
}

/** The import as it was (commit dc8d754): BatchWriteItem of 25 puts, one call after another, unprocessed items sent again. */
async function importBefore(client: DynamoDBDocumentClient, items: readonly InventoryItem[]): Promise<void> {
  for (let start = 0; start < items.length; start += 25) {
    let pending = items.slice(start, start + 25).map((item) => ({ PutRequest: { Item: { ...item, ...inventoryKey(item.petId) } } }));
    while (pending.length > 0) {
      const { UnprocessedItems } = await client.send(new BatchWriteCommand({ RequestItems: { [LOCAL_TABLES.inventoryTable]: pending } }));
      pending = (UnprocessedItems?.[LOCAL_TABLES.inventoryTable] ?? []) as typeof pending;
    }
  }
}

type ImportWriter = { name: string; run: (client: DynamoDBDocumentClient, items: readonly InventoryItem[], file: string) => Promise<void> };

/** The import now: `npm run inventory -- import` itself (file read and checked, the store listed, each entry a versioned UpdateItem). */
const importNow = (writesInFlight: number): ImportWriter => ({
  name: `after: \`npm run inventory -- import\`, ${writesInFlight} UpdateItems in flight`,
  run: async (client, _items, file) => {
    await runInventoryCommand(
      ['import', '--file', file],
      async () => ({
        inventory: createInventoryRepository(client, LOCAL_TABLES.inventoryTable, writesInFlight),
        describe: 'bench store',
        close: async () => undefined,
      }),
      { print: () => undefined, write: () => undefined },
    );
  },
});

const IMPORT_BEFORE: ImportWriter = {
  name: 'before: BatchWriteItem of 25, one call after another',
  run: (client, items) => importBefore(client, items),
};

/** Pets per second of one writer into a fresh store (on disk under a temporary directory, or in memory). */
async function importRate(writer: ImportWriter, pets: number, onDisk: boolean): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-import-'));
  const store = await startLocalStore(onDisk ? { dataDir: dir } : {});
  const client = createDocumentClient({ endpoint: store.endpoint });
  try {
    await createServiceTables(store.endpoint, LOCAL_TABLES);
    const items = benchInventory(pets, 1n);
    const file = join(dir, 'inventory.json');
    await writeFile(file, formatInventoryFile(items));
    const started = performance.now();
    await writer.run(client, items, file);
    return pets / ((performance.now() - started) / 1_000);
  } finally {
    client.destroy();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export interface ManyChangesOptions {
  /** Import 100,000 pets with the default writer instead (the issue's target; many minutes on a busy machine): off by default. */
  import100k: boolean;
  progress: (message: string) => void;
}

export async function measureManyChanges(store: BenchStore, options: ManyChangesOptions): Promise<string> {
  options.progress('6. 100 arrivals, single and batched');
  const delivery = await measureDelivery(store);
  const chosen = importNow(IMPORT_WRITES_IN_FLIGHT);
  // On disk every write is a SQLite commit in the JVM: a few thousand pets say the rate, where 10,000 take minutes on a busy machine.
  const plans = [
    {
      onDisk: true,
      pets: options.import100k ? IMPORT_TARGET.pets : ON_DISK_PETS,
      writers: options.import100k ? [chosen] : [IMPORT_BEFORE, chosen],
    },
    {
      onDisk: false,
      pets: options.import100k ? IMPORT_TARGET.pets : IN_MEMORY_PETS,
      writers: options.import100k ? [chosen] : [IMPORT_BEFORE, importNow(16), chosen, importNow(64)],
    },
  ];
  const rows: string[][] = [];
  let targetRate: number | undefined;
  for (const { onDisk, pets, writers } of plans) {
    for (const writer of writers) {
      options.progress(`6. import ${integer(pets)} pets ${onDisk ? 'on disk' : 'in memory'}: ${writer.name}`);
      const rate = await importRate(writer, pets, onDisk);
      rows.push([
        onDisk ? 'on disk (`npm start`)' : 'in memory (tests)',
        writer.name,
        integer(pets),
        integer(rate),
        `${fixed(pets / rate, 1)} s`,
      ]);
      if (onDisk && pets === IMPORT_TARGET.pets && writer === chosen) targetRate = rate;
    }
  }
  const targetLine =
    targetRate === undefined
      ? `The 100,000-pet target (≤ ${IMPORT_TARGET.seconds} s on disk) was not measured in this run: \`npm run bench -- --section 6 --import-100k\` measures it.`
      : `100,000 pets into the on-disk store took ${fixed(IMPORT_TARGET.pets / targetRate, 0)} s (target ≤ ${IMPORT_TARGET.seconds} s: ${verdict(IMPORT_TARGET.pets / targetRate <= IMPORT_TARGET.seconds, `${fixed(IMPORT_TARGET.pets / targetRate - IMPORT_TARGET.seconds, 0)} s`)}).`;
  return [
    '## 6. Many changes at once: batch adjustments and imports',
    '',
    delivery,
    '',
    `**The import's rate.** Pets per second into a fresh DynamoDB Local started for each run, on disk (as \`npm start\` keeps it, \`-dbPath\`) and in memory (as the tests run it), the file's pets all new. Before: the write loop as it was at commit dc8d754 (reproduced here; it wrote unversioned Puts, which would now reset an entry's version). After: the import command itself (reads and checks the file, lists the store, writes what differs), each entry one versioned, attributed UpdateItem with backoff on throttling, at ${IMPORT_WRITES_IN_FLIGHT} in flight (the default) and at 16 and 64 for comparison. The seed writes through the same putMany.`,
    '',
    table(['Store', 'Writer', 'Pets', 'Pets per second', 'Time'], rows),
    '',
    targetLine,
  ].join('\n');
}
