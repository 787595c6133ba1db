import { GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createHistoryRepository } from '../functions/adapters/dynamodb/history-repository.ts';
import { createInventoryRepository } from '../functions/adapters/dynamodb/inventory-repository.ts';
import { inventoryKey } from '../functions/adapters/dynamodb/stored-inventory-item.ts';
import { DEFAULT_HISTORY_RETENTION_DAYS } from '../functions/domain/vocabulary.ts';
import { versionedChange } from '../functions/adapters/dynamodb/versioned-change.ts';
import { TOOL_KEY_IDS, toolAttribution, type ChangeAttribution } from '../functions/domain/change-attribution.ts';
import { eventIdOf } from '../functions/domain/inventory-events.ts';
import type { InventoryChange } from '../functions/domain/inventory-history.ts';
import type { ChangeEventData } from '../functions/domain/inventory-events.ts';
import { createOperationHandlers } from '../local/operation-handlers.ts';
import { LOCAL_TABLES, STORE_PID_FILE } from '../local/local-store.ts';
import { SEED_FILE_VARIABLE } from '../local/seed.ts';
import { formatInventoryFile } from '../local/inventory-file.ts';
import { FUNCTION_MEMORY_MB } from '../lib/service-function.ts';
import { killServerProcess, startServerProcess } from '../test/support/server-process.ts';
import { openLocalTarget } from '../tools/keys/key-targets.ts';
import { itemBytes, readUnitsOf, recordStoreCalls, writeUnitsOf } from './consumed-capacity.ts';
import { AWS_PRICES, PRICES } from './prices.ts';
import {
  benchInventory,
  documentClientsOf,
  invokeWhole,
  lambdaContext,
  routeEvent,
  routeOf,
  serviceDependencies,
  type BenchStore,
} from './fixtures.ts';
import { dollars, fixed, integer, ms, table, verdict } from './markdown.ts';
import { openLoop } from './open-loop.ts';
import { processCpuMs } from './process-cpu.ts';
import { median, percentile } from './stats.ts';

/**
 * Section 6: what the per-pet history and the events cost. The history's write and read units,
 * computed from the stored items' sizes by DynamoDB's rules (DynamoDB Local reports no capacity
 * that AWS would bill), and the change's latency before and after; then, through the local app as
 * npm start runs it, a change's way to a webhook receiver and to a poller of the feed.
 */

/** Write rounds per variant, interleaved; odd, so that the median is one run. */
const WRITE_ROUNDS = 101;
/** Reads of a history page per size. */
const PAGE_READS = 11;
const PAGE_SIZES = [100, 1_000] as const;
/** The pets of this section, after section 5's. */
const FIRST_PET = 30_001n;
const HISTORY_PET = 30_100n;
/** The rates reported whatever happens (changes a second), then up by EVENTS_RATE_STEP until the server falls behind. */
const REPORTED_RATES = [50, 100, 150] as const;
const EVENTS_RATE_STEP = 50;
const MAX_EVENTS_RATE = 400;
const EVENTS_SECONDS = 10;
const EVENTS_PETS = 100;
/** How long the run waits after its last change for the stragglers before it counts them missing. */
const DRAIN_MS = 20_000;
/** How long the start's own changes (the seed's) may take to reach the feed and the receiver before the load begins. */
const SETTLE_MS = 60_000;
/**
 * Warm-up: steps at a rate every machine keeps up with, until DynamoDB Local's CPU per change falls
 * by less than WARM_UP_STEADY_FALL from one step to the next (its JIT has compiled the path; a fixed
 * warm-up left it cold). Its last step is reported as the row below saturation.
 */
const WARM_UP_RATE = 25;
const WARM_UP_STEP_SECONDS = 10;
const WARM_UP_STEADY_FALL = 0.1;
const MAX_WARM_UP_STEPS = 9;
/** The poller's pause after an empty page: the feed's lag includes up to this much. */
const FEED_POLL_MS = 100;
/** A step kept up when its last second's answers came within this of their scheduled time: no queue built up over the step. */
const KEPT_UP_MS = 250;
const WEBHOOK_P99_TARGET_MS = 2_000;
const DEV_KEY = 'BenchEventsKey00000000000000000000001';
/** `npm start`'s own command (package.json): Node with its young generation capped, as a developer runs it. */
const NPM_START_COMMAND = [process.execPath, '--max-semi-space-size=16', '--import', 'tsx', 'local/main.ts'];

interface Timings {
  name: string;
  samples: number[];
}

const timed = async (timings: Timings, work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  timings.samples.push(performance.now() - started);
};

/** The history record the consumer writes for a change, as createHistoryRepository stores it. */
function historyItem(petId: bigint, change: InventoryChange): Record<string, unknown> {
  return { petId, ...change, expiresAt: Math.floor(Date.parse(change.occurredAt) / 1000) + DEFAULT_HISTORY_RETENTION_DAYS * 86_400 };
}

async function measureWrites(store: BenchStore): Promise<{ markdown: string; entryBytes: number }> {
  const client: DynamoDBDocumentClient = store.dependencies.client;
  const inventory = createInventoryRepository(client, LOCAL_TABLES.inventoryTable);
  const [beforePet, keptPet, alternativePet] = [FIRST_PET, FIRST_PET + 1n, FIRST_PET + 2n];
  await inventory.putMany(benchInventory(3, FIRST_PET), toolAttribution('seed', TOOL_KEY_IDS.seed));
  const attribution = (): ChangeAttribution => ({ kind: 'set', requestId: randomUUID(), keyId: store.keyRecord.keyId });
  const before: Timings = { name: 'before: unversioned UpdateItem (`SET quantity`), no history', samples: [] };
  const kept: Timings = { name: 'kept: versioned, attributed UpdateItem (the entry derived by the stream consumer)', samples: [] };
  const alternative: Timings = {
    name: 'alternative: GetItem for the version, then TransactWriteItems (the update and the entry)',
    samples: [],
  };
  let lastEntry: Record<string, unknown> = {};
  const variants = [
    () =>
      timed(before, () =>
        client.send(
          new UpdateCommand({
            TableName: LOCAL_TABLES.inventoryTable,
            Key: inventoryKey(beforePet),
            UpdateExpression: 'SET quantity = :quantity',
            ConditionExpression: 'attribute_exists(petId)',
            ExpressionAttributeValues: { ':quantity': 1_000 + before.samples.length },
            ReturnValues: 'ALL_NEW',
          }),
        ),
      ),
    () =>
      timed(kept, () =>
        inventory.write({ petId: keptPet, set: { quantity: 1_000 + kept.samples.length, preconditions: {} }, attribution: attribution() }),
      ),
    // The entry is keyed by the version the change makes, and a transaction returns no values: the version must be read first.
    () =>
      timed(alternative, async () => {
        const { Item } = await client.send(
          new GetCommand({ TableName: LOCAL_TABLES.inventoryTable, Key: inventoryKey(alternativePet), ConsistentRead: true }),
        );
        const version = Number(Item?.version ?? 0);
        const quantity = 1_000 + alternative.samples.length;
        const change = versionedChange(attribution());
        const occurredAt = (change.values[':changeLast'] as { occurredAt: string }).occurredAt;
        lastEntry = historyItem(alternativePet, {
          version: version + 1,
          occurredAt,
          kind: 'set',
          quantityBefore: Number(Item?.quantity),
          quantityAfter: quantity,
          delta: quantity - Number(Item?.quantity),
          status: Item?.status,
          requestId: randomUUID(),
          keyId: store.keyRecord.keyId,
        } as InventoryChange);
        await client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: LOCAL_TABLES.inventoryTable,
                  Key: inventoryKey(alternativePet),
                  UpdateExpression: `SET quantity = :quantity, ${change.set}`,
                  ConditionExpression: version === 0 ? 'attribute_not_exists(#version)' : '#version = :read',
                  ExpressionAttributeNames: change.names,
                  ExpressionAttributeValues: { ':quantity': quantity, ...change.values, ...(version === 0 ? {} : { ':read': version }) },
                },
              },
              { Put: { TableName: LOCAL_TABLES.historyTable, Item: lastEntry, ConditionExpression: 'attribute_not_exists(petId)' } },
            ],
          }),
        );
      }),
  ];
  for (let round = 0; round < WRITE_ROUNDS; round += 1) {
    for (let index = 0; index < variants.length; index += 1) await variants[(round + index) % variants.length]!();
  }
  const stored = async (petId: bigint) =>
    (await client.send(new GetCommand({ TableName: LOCAL_TABLES.inventoryTable, Key: inventoryKey(petId) }))).Item!;
  const beforeBytes = itemBytes(await stored(beforePet));
  const keptBytes = itemBytes(await stored(keptPet));
  const entryBytes = itemBytes(lastEntry);
  const keptRequestUnits = writeUnitsOf(keptBytes);
  const keptTotal = keptRequestUnits + writeUnitsOf(entryBytes);
  const alternativeUnits = 2 * (writeUnitsOf(keptBytes) + writeUnitsOf(entryBytes));
  const baseline = median(before.samples);
  const row = (timings: Timings, calls: string, inRequest: string, total: number, readUnits: number) => [
    timings.name,
    calls,
    ms(median(timings.samples)),
    ms(percentile(timings.samples, 99)),
    ms(median(timings.samples) - baseline),
    inRequest,
    fixed(total, 0),
    fixed(readUnits, 0),
    dollars(total * PRICES.usdPerMillionWriteUnits + readUnits * PRICES.usdPerMillionReadUnits),
  ];
  const markdown = [
    `**A change's write, before and after the history.** Three writers of one pet each, ${WRITE_ROUNDS} changes each, interleaved round by round, against the bench's in-memory DynamoDB Local, from this process through the service's document client. *Before*: the write as it was before versions (a conditional \`SET quantity\`), which records nothing. *Kept*: the service's own \`write\` of a set (functions/adapters/dynamodb/inventory-repository.ts), which adds the version and the change's attribution to the same UpdateItem; the history record is then written by the stream consumer (a BatchWriteItem Put, off the request path; the stream's reads are free to a Lambda trigger). *Alternative*: the entry written in the change's own transaction. A TransactWriteItems returns no values, and the entry's key is the version the change makes, so the writer must read the version first (a strongly consistent GetItem) and condition the transaction on it: two sequential calls. **Units are computed, not measured**: DynamoDB Local reports consumed capacity that does not follow AWS's billing (a transaction as 2 units per table, whatever its items), so each item's size is computed from what is stored by DynamoDB's rules (bench/consumed-capacity.ts, \`itemBytes\`): 1 write unit per KB written, 1 read unit per 4 KB strongly consistent (half eventually), and a transaction's writes doubled (2 write units per item per KB). The entry is ${integer(entryBytes)} bytes, the versioned item ${integer(keptBytes)} bytes (${integer(beforeBytes)} without version and attribution): all under 1 KB. Prices as section 4 (on-demand, ${PRICES.region}).`,
    '',
    table(
      [
        'Change',
        'Store calls (in the request)',
        'Latency (median)',
        'p99',
        'Added (median)',
        'Write units in the request',
        'Write units per change (all)',
        'Read units',
        '$ per million changes',
      ],
      [
        row(before, 'UpdateItem', String(writeUnitsOf(beforeBytes)), writeUnitsOf(beforeBytes), 0),
        row(kept, "UpdateItem (+ the consumer's Put, after the answer)", String(keptRequestUnits), keptTotal, 0),
        row(alternative, 'GetItem, then TransactWriteItems of 2', String(alternativeUnits), alternativeUnits, 1),
      ],
    ),
    '',
    `**The kept design** adds no store call to the change's request (${fixed(median(kept.samples) - baseline, 2)} ms on the median write: a bigger item, the same single call) and ${keptTotal - writeUnitsOf(beforeBytes)} write unit per change, written by the consumer (target: no added sequential call and at most 1 write unit: ${verdict(keptTotal - writeUnitsOf(beforeBytes) <= 1, `${keptTotal - writeUnitsOf(beforeBytes) - 1} write units`)}). **The alternative** costs ${alternativeUnits} write units per change (2 × (${writeUnitsOf(keptBytes)} + ${writeUnitsOf(entryBytes)})) and a read unit, ${alternativeUnits - writeUnitsOf(beforeBytes)} more write units than before, and one more sequential call in every request (${fixed(median(alternative.samples) - baseline, 2)} ms added on the median here); an adjustment, already a transaction, would pay 2 more write units for its entry instead of 1.`,
  ].join('\n');
  return { markdown, entryBytes };
}

async function measureHistoryPages(store: BenchStore): Promise<string> {
  const dependencies = serviceDependencies(store.endpoint);
  try {
    const calls = recordStoreCalls(documentClientsOf(dependencies));
    await createInventoryRepository(dependencies.client, LOCAL_TABLES.inventoryTable).putMany(
      benchInventory(1, HISTORY_PET),
      toolAttribution('seed', TOOL_KEY_IDS.seed),
    );
    const started = Date.parse('2026-11-01T00:00:00.000Z');
    const changes: ChangeEventData[] = Array.from(
      { length: Math.max(...PAGE_SIZES) + 1 },
      (_, index) =>
        ({
          petId: HISTORY_PET,
          version: index + 1,
          occurredAt: new Date(started + index * 60_000).toISOString(),
          kind: 'set',
          quantityBefore: index === 0 ? null : 100 + index - 1,
          quantityAfter: 100 + index,
          delta: index === 0 ? 100 : 1,
          status: 'available',
          requestId: randomUUID(),
          keyId: store.keyRecord.keyId,
        }) as ChangeEventData,
    );
    await createHistoryRepository(dependencies.client, LOCAL_TABLES.historyTable, DEFAULT_HISTORY_RETENTION_DAYS).record(changes);
    const handler = (await createOperationHandlers(dependencies)).listInventoryChanges;
    const context = lambdaContext();
    const rows: string[][] = [];
    for (const limit of PAGE_SIZES) {
      const event = routeEvent(routeOf('listInventoryChanges'), store.keyRecord, String(HISTORY_PET));
      const query = { limit: String(limit) };
      const paged = { ...event, queryStringParameters: query, multiValueQueryStringParameters: { limit: [String(limit)] } };
      const samples: number[] = [];
      let operations = '';
      for (let read = 0; read < PAGE_READS; read += 1) {
        calls.length = 0;
        const began = performance.now();
        const answer = (await invokeWhole(handler, paged, context)) as { statusCode: number; body: string };
        samples.push(performance.now() - began);
        const returned = (JSON.parse(answer.body) as { changes?: unknown[] }).changes?.length;
        if (answer.statusCode !== 200 || returned !== limit)
          throw new Error(`history page of ${limit}: ${answer.statusCode}, ${returned} entries`);
        operations = calls.map((call) => call.operation).join(', ');
      }
      // The page's Query reads one entry more than it returns (whether a next page exists).
      const queryBytes = changes.slice(0, limit + 1).reduce((sum, { petId, ...change }) => sum + itemBytes(historyItem(petId, change)), 0);
      const readUnits = readUnitsOf(queryBytes, false);
      rows.push([
        integer(limit),
        operations,
        `${fixed(queryBytes / 1024, 1)} KB`,
        fixed(readUnits, 1),
        ms(median(samples)),
        ms(Math.max(...samples)),
        dollars(readUnits * PRICES.usdPerMillionReadUnits),
      ]);
    }
    return [
      `**Reading a history page.** \`GET /v1/inventory/{petId}/changes?limit=\` through the service's handler in this process (plan counting included), ${PAGE_READS} reads per size of a pet with ${integer(changes.length)} entries, against the bench's DynamoDB Local. The page is one Query (eventually consistent) for limit + 1 entries; its read units are computed from the entries' sizes as above, 0.5 per 4 KB; besides it the request makes the calls listed (the counting write, 1 write unit, and the pet's existence check, 0.5 read unit, as any request of section 4).`,
      '',
      table(
        [
          'Page',
          'Store calls',
          'Query reads',
          "Query's read units",
          'Latency (median)',
          `Slowest of ${PAGE_READS}`,
          "$ per million pages (the Query's units)",
        ],
        rows,
      ),
    ].join('\n');
  } finally {
    dependencies.close();
  }
}

/** What one offered rate gave; latencies and delays in ms. */
interface RateRun {
  ratePerSecond: number;
  /** From the moment each change was due to its answer: a queue anywhere (the bench's too) shows here. */
  answers: number[];
  webhook: number[];
  feed: number[];
  missingWebhooks: number;
  missingFeed: number;
  changes: number;
  /** Answers other than 200, by status. */
  refused: string;
  /** The median answer of the step's last second, from its due time: what a queue built up over the step adds. */
  lastSecondAnswerMs: number;
  keptUp: boolean;
  /** CPU (ms) each process of the path used per change answered: its cost, which a busy machine changes far less than latency. */
  cpuPerChange: { server?: number; store?: number; load?: number };
  /** The machine's 1-minute load average at the step's end. */
  loadAverage: number;
}

/** A receiver on 127.0.0.1 that answers 204 and notes when each webhook id first arrived. */
async function startReceiver(arrivals: Map<string, number>): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const id = String(request.headers['webhook-id']);
      if (!arrivals.has(id)) arrivals.set(id, performance.now());
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, server };
}

/**
 * `npm start` in a process of its own (on-disk store under a temporary DATA_DIR, webhooks to a
 * receiver on 127.0.0.1), an enterprise key whose limits no rate here reaches, and a poller of the
 * change feed; the warm-up, then each rate in turn, each step drained before the next.
 */
async function measureChangeDelays(progress: (message: string) => void): Promise<{ runs: RateRun[]; warmUp: RateRun[] }> {
  const arrivals = new Map<string, number>();
  const receiver = await startReceiver(arrivals);
  const dataDir = await mkdtemp(join(tmpdir(), 'petstore-bench-events-'));
  const seedFile = join(dataDir, 'seed.json');
  await writeFile(seedFile, formatInventoryFile(benchInventory(EVENTS_PETS)));
  const server = await startServerProcess({
    dataDir,
    command: NPM_START_COMMAND,
    captureOutput: 'startup',
    env: {
      DEV_API_KEY: DEV_KEY,
      [SEED_FILE_VARIABLE]: seedFile,
      WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
    },
  });
  const baseUrl = server.baseUrl.replace('localhost', '127.0.0.1');
  const seenInFeed = new Map<string, number>();
  let polling = true;
  let poller: Promise<void> = Promise.resolve();
  const runs: RateRun[] = [];
  const warmUp: RateRun[] = [];
  try {
    const keys = await openLocalTarget(dataDir);
    const apiKey = await keys.admin
      .issue({ plan: 'enterprise', owner: 'bench', customLimits: { perMinute: 1_000_000, perDay: 100_000_000 } })
      .then(({ apiKey }) => apiKey)
      .finally(() => keys.close());
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    const { pid: storePid } = JSON.parse(await readFile(join(dataDir, STORE_PID_FILE), 'utf8')) as { pid: number };
    const processes = { server: server.process.pid!, store: storePid };
    poller = pollFeed(baseUrl, headers, seenInFeed, () => polling);
    // The start's own work first: the seed's changes go to the history, the feed and the receiver, and every
    // path warms (the JVM's JIT, the modules a first request loads). A load sent meanwhile queues behind it,
    // and at a rate near the server's the queue never drains: the step would measure the start, not the path.
    progress(`6. waiting for the seed's ${EVENTS_PETS} changes to reach the feed and the receiver`);
    const settledBy = performance.now() + SETTLE_MS;
    while ((seenInFeed.size < EVENTS_PETS || arrivals.size < EVENTS_PETS) && performance.now() < settledBy) await sleep(100);
    let sent = 0;
    const step = async (rate: number, seconds: number) => {
      const run = await rateRun(baseUrl, headers, rate, seconds, sent, { arrivals, seenInFeed }, processes);
      sent += rate * seconds;
      return run;
    };
    const storeCpu = (run: RateRun | undefined) => run?.cpuPerChange.store ?? Number.NaN;
    while (warmUp.length < MAX_WARM_UP_STEPS) {
      progress(`6. warming up: ${WARM_UP_RATE} changes a second for ${WARM_UP_STEP_SECONDS} s (step ${warmUp.length + 1})`);
      warmUp.push(await step(WARM_UP_RATE, WARM_UP_STEP_SECONDS));
      if (warmUp.length >= 2 && storeCpu(warmUp.at(-1)) >= storeCpu(warmUp.at(-2)) * (1 - WARM_UP_STEADY_FALL)) break;
    }
    for (let rate: number = REPORTED_RATES[0]; rate <= MAX_EVENTS_RATE; ) {
      progress(`6. ${rate} changes a second for ${EVENTS_SECONDS} s`);
      const run = await step(rate, EVENTS_SECONDS);
      runs.push(run);
      if (runs.length >= REPORTED_RATES.length && !run.keptUp) break;
      rate = REPORTED_RATES[runs.length] ?? rate + EVENTS_RATE_STEP;
    }
  } finally {
    polling = false;
    await poller.catch(() => undefined);
    // SIGTERM: npm start stops its store's JVM on the way out; SIGKILL only if it has not exited in 15 s.
    server.process.kill('SIGTERM');
    await Promise.race([server.exited, sleep(15_000).then(() => killServerProcess(server))]);
    await rm(dataDir, { recursive: true, force: true });
    await new Promise((resolve) => receiver.server.close(resolve));
  }
  return { runs, warmUp };
}

/** Follows the feed from its start: at once after a full page, FEED_POLL_MS after any other (a poller's own load stays small). */
async function pollFeed(baseUrl: string, headers: Record<string, string>, seen: Map<string, number>, going: () => boolean): Promise<void> {
  let cursor: string | undefined;
  while (going()) {
    const response = await fetch(`${baseUrl}/inventory/changes?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      headers,
    });
    const page = (await response.json()) as { changes: { petId: string | number; version: number }[]; nextCursor: string };
    // A refused page is asked again from the same cursor, as a client does after Retry-After.
    if (response.status !== 200) {
      await sleep(1_000);
      continue;
    }
    const now = performance.now();
    for (const change of page.changes) {
      const id = eventIdOf({ petId: BigInt(change.petId), version: change.version });
      if (!seen.has(id)) seen.set(id, now);
    }
    cursor = page.nextCursor;
    if (page.changes.length < 1000) await sleep(FEED_POLL_MS);
  }
}

/**
 * One rate for `seconds`, open loop (bench/open-loop.ts): change i is due at start + i / rate
 * whatever the others do, pets in turn, and its answer latency counts from when it was due. Then
 * the step is drained: every answered change seen in the feed and at the receiver, or DRAIN_MS
 * passed; the CPU each process used over the step and its drain is divided by the changes answered.
 */
async function rateRun(
  baseUrl: string,
  headers: Record<string, string>,
  rate: number,
  seconds: number,
  sentBefore: number,
  seen: { arrivals: Map<string, number>; seenInFeed: Map<string, number> },
  processes: { server: number; store: number },
): Promise<RateRun> {
  const answered = new Map<string, number>();
  const answers: { dueAt: number; latency: number }[] = [];
  const refused = new Map<string, number>();
  const cpuAtStart = { server: processCpuMs(processes.server), store: processCpuMs(processes.store), load: process.cpuUsage() };
  const requests = await openLoop({ rate, seconds }, async (index) => {
    const petId = BigInt((index % EVENTS_PETS) + 1);
    try {
      const response = await fetch(`${baseUrl}/inventory/${petId}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ quantity: 1_000 + sentBefore + index }),
      });
      await response.text();
      return { petId, status: String(response.status), etag: response.headers.get('etag') };
    } catch (error) {
      // A connection the server closed as the request went out (a kept-alive one at its idle timeout): a client's failure, counted.
      return {
        petId,
        status: `failed (${(error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message})`,
        etag: null,
      };
    }
  });
  for (const { answer, dueAt, latency, answeredAt } of requests) {
    // A change refused (a 503 when the store falls behind) records nothing: counted, not followed.
    if (answer.status !== '200') {
      refused.set(answer.status, (refused.get(answer.status) ?? 0) + 1);
      continue;
    }
    answers.push({ dueAt, latency });
    answered.set(eventIdOf({ petId: answer.petId, version: Number(answer.etag!.replace(/\D/g, '')) }), answeredAt);
  }
  const start = requests[0]!.dueAt;
  const deadline = performance.now() + DRAIN_MS;
  const complete = () => [...answered.keys()].every((id) => seen.seenInFeed.has(id) && seen.arrivals.has(id));
  while (!complete() && performance.now() < deadline) await sleep(50);
  const delays = (from: Map<string, number>) =>
    [...answered].flatMap(([id, at]) => (from.has(id) ? [Math.max(0, from.get(id)! - at)] : []));
  const webhook = delays(seen.arrivals);
  const feed = delays(seen.seenInFeed);
  const lastSecond = answers.filter(({ dueAt }) => dueAt >= start + (seconds - 1) * 1_000).map(({ latency }) => latency);
  const lastSecondAnswerMs = lastSecond.length > 0 ? median(lastSecond) : Number.POSITIVE_INFINITY;
  const perChange = (before: number | undefined, after: number | undefined) =>
    before === undefined || after === undefined || answered.size === 0 ? undefined : (after - before) / answered.size;
  const loadCpu = process.cpuUsage(cpuAtStart.load);
  return {
    ratePerSecond: rate,
    answers: answers.map(({ latency }) => latency),
    webhook,
    feed,
    missingWebhooks: answered.size - webhook.length,
    missingFeed: answered.size - feed.length,
    changes: answered.size,
    refused: [...refused].map(([status, count]) => `${count} × ${status}`).join(', ') || 'none',
    lastSecondAnswerMs,
    keptUp: refused.size === 0 && lastSecondAnswerMs <= KEPT_UP_MS,
    cpuPerChange: {
      server: perChange(cpuAtStart.server, processCpuMs(processes.server)),
      store: perChange(cpuAtStart.store, processCpuMs(processes.store)),
      load: perChange(0, (loadCpu.user + loadCpu.system) / 1_000),
    },
    loadAverage: loadavg()[0]!,
  };
}

/** The duration a cost estimate assumes per invocation: a guess, stated as one. */
const ASSUMED_INVOCATION_MS = 100;

function awsCostPerChange(entryBytes: number, webhookUrls: number): string {
  const gbSeconds = (FUNCTION_MEMORY_MB / 1024) * (ASSUMED_INVOCATION_MS / 1000);
  const invocation = PRICES.usdPerMillionLambdaRequests + gbSeconds * PRICES.usdPerLambdaArmGbSecond * 1_000_000;
  const historyUnits = writeUnitsOf(entryBytes);
  // The feed's append is one transaction of the sequence update and, per change, its entry and its marker: 2 units per item.
  const feedUnitsWorst = 2 * 3;
  const feedUnitsBatched = 2 * 2;
  const rows: [string, string, number, number][] = [
    ['Stream reads by the consumer (a Lambda trigger)', 'free', 0, 0],
    [
      'Consumer invocations (batches of the stream; 1 change per batch at worst)',
      `$${PRICES.usdPerMillionLambdaRequests} per million + ${FUNCTION_MEMORY_MB} MB × ${ASSUMED_INVOCATION_MS} ms`,
      invocation / 100,
      invocation,
    ],
    [
      'History record (BatchWriteItem Put)',
      `${historyUnits} write unit`,
      historyUnits * PRICES.usdPerMillionWriteUnits,
      historyUnits * PRICES.usdPerMillionWriteUnits,
    ],
    [
      'Change feed append (TransactWriteItems: entry, marker, sequence)',
      `${feedUnitsBatched}–${feedUnitsWorst} write units`,
      feedUnitsBatched * PRICES.usdPerMillionWriteUnits,
      feedUnitsWorst * PRICES.usdPerMillionWriteUnits,
    ],
    [
      'EventBridge PutEvents (one event)',
      `$${AWS_PRICES.eventBridgeEvents} per million events`,
      AWS_PRICES.eventBridgeEvents,
      AWS_PRICES.eventBridgeEvents,
    ],
    [
      `SQS FIFO per delivery (SendMessageBatch, the trigger's ReceiveMessage and DeleteMessageBatch; 10 per request at best), × ${webhookUrls} endpoint`,
      `$${AWS_PRICES.sqsFifoRequests} per million requests`,
      (3 / 10) * AWS_PRICES.sqsFifoRequests * webhookUrls,
      3 * AWS_PRICES.sqsFifoRequests * webhookUrls,
    ],
    [
      `Delivery invocations (batches of up to 10 messages), × ${webhookUrls} endpoint`,
      `as the consumer's`,
      (invocation / 10) * webhookUrls,
      invocation * webhookUrls,
    ],
  ];
  const best = rows.reduce((sum, row) => sum + row[2], 0);
  const worst = rows.reduce((sum, row) => sum + row[3], 0);
  return [
    `**Cost per change on AWS** (computed, not measured: no AWS account here), in dollars per million changes, one webhook endpoint. Prices: the published on-demand list prices in us-east-1 as AWS's pricing pages give them (Lambda $${PRICES.usdPerMillionLambdaRequests} per million requests and $${PRICES.usdPerLambdaArmGbSecond} per GB-second on arm64; EventBridge $${AWS_PRICES.eventBridgeEvents} per million custom events of up to 64 KB; SQS FIFO $${AWS_PRICES.sqsFifoRequests} per million requests of up to 64 KB; DynamoDB as section 4), without free tiers; not checked online from this machine, so check them before quoting. Lambda duration is an assumption (${ASSUMED_INVOCATION_MS} ms per invocation at ${FUNCTION_MEMORY_MB} MB), not a measurement. *Batched* is the stream and queue batching a steady load gets (the consumer's batch of 100 counted as one invocation per 100 changes, 10 messages per SQS request); *one by one* is a change at a time. The API request itself (API Gateway, the handler, the change's own write) is not included.`,
    '',
    table(
      ['Per change', 'Unit price', '$ per million changes, batched', '$ per million changes, one by one'],
      [
        ...rows.map(([name, price, low, high]) => [name, price, dollars(low), dollars(high)]),
        ['**Total**', '', dollars(best), dollars(worst)],
      ],
    ),
  ].join('\n');
}

/** The highest rate kept up with and the first one not, in words. */
function saturation(runs: readonly RateRun[]): string {
  const kept = runs.filter((run) => run.keptUp).map((run) => run.ratePerSecond);
  const fell = runs.find((run) => !run.keptUp)?.ratePerSecond;
  const highest = kept.length > 0 ? Math.max(...kept) : undefined;
  if (fell === undefined)
    return `\`npm start\` kept up with every rate tried, up to ${highest} changes a second: it saturates above that (the sweep stops at ${MAX_EVENTS_RATE}).`;
  if (highest === undefined || highest > fell)
    return `**\`npm start\` did not keep up with ${fell} changes a second** in this run, the first rate tried: its answers queued (last second's median above), so every delay of that row measures the backlog more than the path of an event; a machine this busy saturates below it.`;
  return `\`npm start\` **saturates between ${highest} and ${fell} changes a second** in this run: it kept up with ${highest} (no queue built up: its last second's answers came within ${KEPT_UP_MS} ms of their time) and not with ${fell}, whose delays measure the backlog more than the path of an event.`;
}

export async function measureHistoryAndEvents(store: BenchStore, progress: (message: string) => void): Promise<string> {
  progress("6. a change's write, before and after the history");
  const writes = await measureWrites(store);
  progress('6. history pages');
  const pages = await measureHistoryPages(store);
  const { runs, warmUp } = await measureChangeDelays(progress);
  const settled = warmUp.at(-1)!;
  const stat = (samples: number[], p: number) => (samples.length === 0 ? '—' : ms(percentile(samples, p)));
  const pair = (samples: number[]) => `${stat(samples, 50)} / ${stat(samples, 99)}`;
  const atTarget = runs.find((run) => run.ratePerSecond === REPORTED_RATES[0]);
  const webhookP99 = atTarget && atTarget.webhook.length > 0 ? percentile(atTarget.webhook, 99) : Number.POSITIVE_INFINITY;
  return [
    '## 6. History and events: what a change costs to remember and to announce',
    '',
    writes.markdown,
    '',
    pages,
    '',
    `**From a change's answer to its webhook and to the feed, and where \`npm start\` saturates.** \`npm start\` (started as \`npm start\` starts it, its store on disk, ${EVENTS_PETS} pets, an enterprise key), webhooks to a receiver on 127.0.0.1 and a poller of \`GET /v1/inventory/changes\` (${FEED_POLL_MS} ms after a page that was not full), both in the bench's process; the load is an open loop of \`PATCH /v1/inventory/{petId}\` (bench/open-loop.ts: change *i* due at *i* / rate), ${EVENTS_SECONDS} s a step, each step drained before the next. After the seed's own changes arrive, a warm-up of ${WARM_UP_STEP_SECONDS}-second steps at ${WARM_UP_RATE} a second runs until DynamoDB Local's CPU per change falls by less than ${WARM_UP_STEADY_FALL * 100}% from one step to the next (at most ${MAX_WARM_UP_STEPS}; in this run ${warmUp.length}, its CPU per change ${warmUp.map((run) => (run.cpuPerChange.store === undefined ? '—' : ms(run.cpuPerChange.store))).join(' → ')}); its last step is the first row, the path below saturation. Then ${REPORTED_RATES.join(', ')} a second, and on by ${EVENTS_RATE_STEP} until a step is not kept up (at most ${MAX_EVENTS_RATE}). **Answer latency** counts from when the change was due (no coordinated omission), **the delays** from its answer (matched by pet and ETag version); figures are p50 / p99, changes not seen ${DRAIN_MS / 1000} s after the last answer are missing. A step *kept up* when its last second's median answer came within ${KEPT_UP_MS} ms of its due time. **CPU per change** is each process's CPU over the step and its drain (/proc) per change answered; rate × its sum against the 2,000 ms a second two cores have says whether a step could be kept up at all, and a load average above 2 means the delays measure the machine, not the service.`,
    '',
    table(
      [
        'Changes a second',
        'Answered 200',
        'Refused',
        'Answer latency (from due)',
        "Last second's median answer",
        'Answer → feed (poller)',
        'Answer → webhook arrival',
        'Missing (feed / webhooks)',
        'CPU per change: server / its DynamoDB Local / load',
        'Load average',
        'Kept up',
      ],
      [settled, ...runs].map((run) => [
        run === settled ? `${run.ratePerSecond} (the warm-up's last step)` : integer(run.ratePerSecond),
        integer(run.changes),
        run.refused,
        pair(run.answers),
        ms(run.lastSecondAnswerMs),
        pair(run.feed),
        pair(run.webhook),
        `${run.missingFeed} / ${run.missingWebhooks}`,
        [run.cpuPerChange.server, run.cpuPerChange.store, run.cpuPerChange.load]
          .map((cpu) => (cpu === undefined ? '—' : ms(cpu)))
          .join(' / '),
        fixed(run.loadAverage, 2),
        run.keptUp ? 'yes' : '**no**',
      ]),
    ),
    '',
    saturation(runs),
    '',
    `Webhook p99 at ${REPORTED_RATES[0]} changes a second ${atTarget ? stat(atTarget.webhook, 99) : '—'} (target ≤ ${WEBHOOK_P99_TARGET_MS / 1000} s: ${verdict(webhookP99 <= WEBHOOK_P99_TARGET_MS, `${fixed((webhookP99 - WEBHOOK_P99_TARGET_MS) / 1000, 2)} s`)}).`,
    '',
    awsCostPerChange(writes.entryBytes, 1),
  ].join('\n');
}
