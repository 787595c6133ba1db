import { createLowStockThresholdRepository } from '../functions/adapters/dynamodb/low-stock-threshold-repository.ts';
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDocumentClient, updateIfConditionHolds } from '../functions/adapters/dynamodb/document-client.ts';
import {
  createInventoryRepository,
  entryReplacement,
  IMPORT_TRANSACTION_ENTRIES,
  IMPORT_TRANSACTIONS_IN_FLIGHT,
} from '../functions/adapters/dynamodb/inventory-repository.ts';
import { inventoryKey } from '../functions/adapters/dynamodb/stored-inventory-item.ts';
import { TOOL_KEY_IDS, toolAttribution, type ChangeAttribution } from '../functions/domain/change-attribution.ts';
import type { InventoryRepository } from '../functions/domain/inventory-service.ts';
import { MAX_BATCH_CHANGES } from '../functions/domain/vocabulary.ts';
import type { InventoryCount } from '../functions/domain/schemas.ts';
import { createAuthorizerHandler } from '../functions/handlers/authorizer-handler.ts';
import { createOperationHandlers } from '../local/operation-handlers.ts';
import { toJson } from '../functions/int64-json.ts';
import { runInventoryCommand } from '../tools/inventory-tool/cli.ts';
import { formatInventoryFile } from '../local/inventory-file.ts';
import { createServiceTables, LOCAL_TABLES, startLocalStore } from '../local/local-store.ts';
import { describeCalls, distinctCalls, readUnits, recordStoreCalls, writeUnits, type StoreCall } from './consumed-capacity.ts';
import { PRICES } from './prices.ts';
import {
  authorizerEvent,
  benchInventory,
  documentClientsOf,
  eachInFlight,
  invokeWhole,
  lambdaContext,
  routeEvent,
  routeOf,
  type BenchStore,
} from './fixtures.ts';
import { dollars, fixed, integer, table, verdict } from './markdown.ts';

/**
 * Section 5: many changes at once. A delivery of 100 arrivals as single adjustments against the
 * fewest batches, through the service's own handlers and authorizer; and the operators' import,
 * before (one versioned UpdateItem per pet, 32 in flight) and after (the same updates in
 * transactions of 100, a few in flight), into DynamoDB Local on disk and in memory.
 */

const ARRIVALS = 100;
/** The delivery's pets: after the 100 pets sections 1 and 4 read. */
const FIRST_DELIVERED_PET = 1_001n;
/** The import target of the issue: 100,000 pets into the on-disk store in at most 60 s. */
const IMPORT_TARGET = { pets: 100_000, seconds: 60 } as const;
/** Pets per import run; --import-100k adds IMPORT_TARGET's. */
const SMALL_IMPORT = 10_000;

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
async function deliveries(store: BenchStore) {
  const handlers = await createOperationHandlers(store.dependencies);
  const authorizer = createAuthorizerHandler(store.dependencies);
  const calls = recordStoreCalls(documentClientsOf(store.dependencies));
  let transactionActions = 0;
  store.dependencies.client.middlewareStack.add(
    (next, context) => async (args) => {
      // The name of the command the base client runs: the document client's TransactWriteCommand wraps it.
      if (context.commandName === 'TransactWriteItemsCommand')
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
  const deliver = await deliveries(store);
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
    integer(distinctCalls(run.calls).length),
    fixed(readUnits(run.calls), 1),
    fixed(billedWriteUnits(run), 1),
    dollars(usdPerMillionChanges(run)),
  ];
  return [
    `**${ARRIVALS} arrivals, single against batched.** The handlers and the authorizer in this process against the bench's in-memory DynamoDB Local, one request after another (as one terminal sends them), each request authorized and counted against the plan as on AWS; store calls and capacity recorded as in section 4, but a transaction's write units counted as AWS bills them (2 per action; DynamoDB Local reports 2 per table whatever the number of actions), priced at on-demand ${PRICES.region}. A batch holds at most ${MAX_BATCH_CHANGES} changes (one transaction of 100 actions: one per change and the key's record), so ${ARRIVALS} arrivals take two. Lambda and API Gateway charges are not included; they are per request, so a batch saves them too.`,
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
        '$ per million changes',
      ],
      runs.map(row),
    ),
    '',
    ...runs.map((run) => `- ${run.name}: ${describeCalls(run.calls)}.`),
  ].join('\n');
}

/** The putMany as it was before this change (commit 6b3727e): one versioned, attributed UpdateItem per entry, 32 in flight. */
const UPDATES_IN_FLIGHT_BEFORE = 32;

function putManyBefore(client: DynamoDBDocumentClient, items: readonly InventoryCount[], attribution: ChangeAttribution): Promise<void> {
  return eachInFlight(items, UPDATES_IN_FLIGHT_BEFORE, (item) =>
    updateIfConditionHolds(client, entryReplacement(LOCAL_TABLES.inventoryTable, item, attribution)),
  );
}

/** The floor, not a way to import: BatchWriteItem of 25 unversioned Puts (the import at commit dc8d754), 4 calls in flight. */
function unversionedPuts(client: DynamoDBDocumentClient, items: readonly InventoryCount[]): Promise<void> {
  const batches = Array.from({ length: Math.ceil(items.length / 25) }, (_, index) => items.slice(index * 25, (index + 1) * 25));
  return eachInFlight(batches, 4, async (batch) => {
    // What the store did not take is sent again until it has taken all.
    let pending = batch.map((item) => ({ PutRequest: { Item: { ...item, ...inventoryKey(item.petId) } } }));
    while (pending.length > 0) {
      const { UnprocessedItems } = await client.send(new BatchWriteCommand({ RequestItems: { [LOCAL_TABLES.inventoryTable]: pending } }));
      pending = (UnprocessedItems?.[LOCAL_TABLES.inventoryTable] ?? []) as typeof pending;
    }
  });
}

type ImportWriter = {
  name: string;
  run: (client: DynamoDBDocumentClient, file: string, items: readonly InventoryCount[]) => Promise<void>;
};

/** `npm run inventory -- import` itself (file read and checked, the store listed, what differs written), through the given putMany. */
async function importCommand(client: DynamoDBDocumentClient, file: string, putMany?: InventoryRepository['putMany']): Promise<void> {
  const inventory = createInventoryRepository(client, LOCAL_TABLES.inventoryTable);
  await runInventoryCommand(
    ['import', '--file', file],
    async () => ({
      inventory: putMany ? { ...inventory, putMany } : inventory,
      thresholds: createLowStockThresholdRepository(client, LOCAL_TABLES.inventoryTable),
      describe: 'bench store',
      close: async () => undefined,
    }),
    { print: () => undefined, write: () => undefined },
  );
}

const IMPORT_BEFORE: ImportWriter = {
  name: `before: \`npm run inventory -- import\`, one versioned UpdateItem per pet, ${UPDATES_IN_FLIGHT_BEFORE} in flight`,
  run: (client, file) => importCommand(client, file, (items, attribution) => putManyBefore(client, items, attribution)),
};

const importAfter = (transactionsInFlight: number): ImportWriter => ({
  name: `after: \`npm run inventory -- import\`, transactions of ${IMPORT_TRANSACTION_ENTRIES} versioned Updates, ${transactionsInFlight} in flight${transactionsInFlight === IMPORT_TRANSACTIONS_IN_FLIGHT ? ' (the default)' : ''}`,
  run: (client, file) =>
    importCommand(client, file, createInventoryRepository(client, LOCAL_TABLES.inventoryTable, transactionsInFlight).putMany),
});

const IMPORT_AFTER = importAfter(IMPORT_TRANSACTIONS_IN_FLIGHT);

const FLOOR: ImportWriter = {
  name: 'floor, not an import: unversioned BatchWriteItem of 25 Puts, 4 in flight',
  run: (client, _file, items) => unversionedPuts(client, items),
};

interface ImportRun {
  rate: number;
  loadAtStart: number;
}

/** Pets per second of one writer into a fresh store (on disk under a temporary directory, or in memory), with the load average as it began. */
async function importRate(writer: ImportWriter, pets: number, onDisk: boolean): Promise<ImportRun> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-import-'));
  const store = await startLocalStore(onDisk ? { dataDir: dir } : {});
  const client = createDocumentClient({ endpoint: store.endpoint });
  try {
    await createServiceTables(store.endpoint, LOCAL_TABLES);
    const items = benchInventory(pets, 1n);
    const file = join(dir, 'inventory.json');
    await writeFile(file, formatInventoryFile(items));
    const loadAtStart = loadavg()[0]!;
    const started = performance.now();
    await writer.run(client, file, items);
    return { rate: pets / ((performance.now() - started) / 1_000), loadAtStart };
  } finally {
    client.destroy();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export interface ManyChangesOptions {
  /** Import 100,000 pets too, before and after, on disk and in memory (the issue's target; the "before" runs take many minutes): off by default. */
  import100k: boolean;
  progress: (message: string) => void;
}

export async function measureManyChanges(store: BenchStore, options: ManyChangesOptions): Promise<string> {
  options.progress('5. 100 arrivals, single and batched');
  const delivery = await measureDelivery(store);
  const plans = [
    { onDisk: true, pets: SMALL_IMPORT, writers: [IMPORT_BEFORE, IMPORT_AFTER, FLOOR] },
    { onDisk: false, pets: SMALL_IMPORT, writers: [IMPORT_BEFORE, importAfter(1), IMPORT_AFTER, importAfter(4), FLOOR] },
    ...(options.import100k
      ? [
          { onDisk: true, pets: IMPORT_TARGET.pets, writers: [IMPORT_AFTER, IMPORT_BEFORE] },
          { onDisk: false, pets: IMPORT_TARGET.pets, writers: [IMPORT_AFTER, IMPORT_BEFORE] },
        ]
      : []),
  ];
  const rows: string[][] = [];
  let targetRate: number | undefined;
  for (const { onDisk, pets, writers } of plans) {
    for (const writer of writers) {
      options.progress(`5. import ${integer(pets)} pets ${onDisk ? 'on disk' : 'in memory'}: ${writer.name}`);
      const { rate, loadAtStart } = await importRate(writer, pets, onDisk);
      rows.push([
        onDisk ? 'on disk (`npm start`)' : 'in memory (tests)',
        writer.name,
        integer(pets),
        integer(rate),
        `${fixed(pets / rate, 1)} s`,
        fixed(loadAtStart, 1),
      ]);
      if (onDisk && pets === IMPORT_TARGET.pets && writer === IMPORT_AFTER) targetRate = rate;
    }
  }
  const targetLine =
    targetRate === undefined
      ? `The 100,000-pet target (≤ ${IMPORT_TARGET.seconds} s on disk) was not measured in this run: \`npm run bench -- --section 5 --import-100k\` measures it.`
      : `100,000 pets into the on-disk store took ${fixed(IMPORT_TARGET.pets / targetRate, 0)} s (target ≤ ${IMPORT_TARGET.seconds} s: ${verdict(IMPORT_TARGET.pets / targetRate <= IMPORT_TARGET.seconds, `${fixed(IMPORT_TARGET.pets / targetRate - IMPORT_TARGET.seconds, 0)} s`)}).`;
  return [
    '## 5. Many changes at once: batch adjustments and imports',
    '',
    delivery,
    '',
    `**The import's rate.** Pets per second into a fresh DynamoDB Local started for each run (its JVM's warm-up included, as in a first \`npm start\`), on disk (as \`npm start\` keeps it, \`-dbPath\`) and in memory (as the tests run it), the file's pets all new, through the import command itself (reads and checks the file, lists the store, writes what differs); the seed writes through the same putMany. Before: one versioned, attributed UpdateItem per pet, ${UPDATES_IN_FLIGHT_BEFORE} in flight (the putMany of commit 6b3727e, reproduced here). After: the same versioned Updates grouped in TransactWriteItems of ${IMPORT_TRANSACTION_ENTRIES}, ${IMPORT_TRANSACTIONS_IN_FLIGHT} in flight (the default; 1 and 4 for comparison), with backoff on throttling and conflicts. The floor is what DynamoDB Local takes at most, unversioned Puts in batches, which an import may not write (a Put would reset an entry's version). The load average (1 min) is the machine's as each run began: two cores, shared with whatever else runs.`,
    '',
    table(['Store', 'Writer', 'Pets', 'Pets per second', 'Time', 'Load'], rows),
    '',
    targetLine,
  ].join('\n');
}
