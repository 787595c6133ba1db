/**
 * `npm run soak`: a long mixed load against `npm start` as a user runs it (its own process on a
 * fresh DATA_DIR, on 127.0.0.1), then a SIGKILL of the server's whole process group under load,
 * a restart on the same DATA_DIR, and a check of every write the server acknowledged. Writes
 * bench/soak.md. Bounded by its flags:
 *
 *   npm run soak -- --duration 180 --clients 10 --window 30 --pets 100
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { writeFileAtomically } from '../local/atomic-file.ts';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { openLocalTarget } from '../tools/keys/key-targets.ts';
import { isAlive, STORE_PID_FILE } from '../local/local-store.ts';
import { startServerProcess, type ServerProcess } from '../test/support/server-process.ts';
import { UNTHROTTLED_LIMITS } from './fixtures.ts';
import { describeMachine } from './machine.ts';
import { fixed, integer, mib, ms, ratio, table, verdict } from './markdown.ts';
import { percentile } from './stats.ts';

const REPORT = fileURLToPath(new URL('./soak.md', import.meta.url));
const DEV_KEY = 'SoakDevKey0123456789abcdefghijk';
/** How long the load runs on after the last window before the kill, so that writes are in flight when it lands. */
const LOAD_BEFORE_KILL_MS = 3_000;
/** Every request gives up after this; a request cut off by the kill fails at once anyway. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Quantity the adjusted pets start from, so that random deltas never come near zero. */
const ADJUSTED_START = 1_000_000;

const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string', default: '180' },
    clients: { type: 'string', default: '10' },
    window: { type: 'string', default: '30' },
    pets: { type: 'string', default: '100' },
  },
});
const positive = (name: keyof typeof flags, max: number) => {
  const value = Number(flags[name]);
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new Error(`--${name} must be an integer from 1 to ${max}, not "${flags[name]}".`);
  return value;
};
const durationMs = positive('duration', 3_600) * 1_000;
const clients = positive('clients', 100);
const windowMs = positive('window', 600) * 1_000;
const petsPerOperation = positive('pets', 10_000);
if (petsPerOperation < clients) throw new Error('--pets must be at least --clients: every client writes pets of its own.');

// The request mix: an operation is one request of a client; a write also says which pet it changes
// and how, so that the ledger knows what each pet must hold afterwards.

interface SoakRequest {
  method: 'GET' | 'PATCH' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** A write: its pet, and what the pet would hold from a quantity, had the write happened. Its 200 answer is the InventoryItem. */
  write?: { petId: number; ifApplied: (quantity: number) => number };
}

interface Operation {
  name: string;
  /** The pets this operation writes, and the quantity each is seeded with. */
  pets?: { firstId: number; start: number };
  request(client: number): SoakRequest;
}

const random = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));

/** A pet of the operation's that this client owns: every client writes pets of its own, so each pet's writes come in order. */
function petOf(pets: { firstId: number }, client: number): number {
  return pets.firstId + client + clients * random(0, Math.floor(petsPerOperation / clients) - 1);
}

const listInventory: Operation = {
  name: 'GET /inventory',
  request: () => ({ method: 'GET', path: '/inventory' }),
};

const updateInventory: Operation = {
  name: 'PATCH /inventory/{petId}',
  pets: { firstId: 1, start: 0 },
  request(client) {
    const petId = petOf(this.pets!, client);
    const quantity = random(0, 1_000_000);
    return { method: 'PATCH', path: `/inventory/${petId}`, body: { quantity }, write: { petId, ifApplied: () => quantity } };
  },
};

const adjustInventory: Operation = {
  name: 'POST /inventory/{petId}/adjustments',
  pets: { firstId: 1 + petsPerOperation, start: ADJUSTED_START },
  request(client) {
    const petId = petOf(this.pets!, client);
    const delta = random(1, 5) * (Math.random() < 0.4 ? -1 : 1);
    return {
      method: 'POST',
      path: `/inventory/${petId}/adjustments`,
      headers: { 'Idempotency-Key': randomUUID() },
      body: { delta, reason: delta > 0 ? 'arrival' : 'adjustment' },
      write: { petId, ifApplied: (quantity) => quantity + delta },
    };
  },
};

/** Every client picks each request among these at random, with equal chances. */
const OPERATIONS: readonly Operation[] = [listInventory, updateInventory, adjustInventory];

interface ProcessSample {
  pid: number;
  command: string;
  rssBytes: number;
}

/** Every process of the server: its Node process and all it started (the store's watchdog shell and its JVM). */
function serverProcesses(serverPid: number): ProcessSample[] {
  const listing = spawnSync('ps', ['-A', '-o', 'pid=,ppid=,rss=,comm='], { encoding: 'utf8' }).stdout;
  const rows = listing
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .map(([pid, ppid, rss, ...command]) => ({
      pid: Number(pid),
      ppid: Number(ppid),
      rssBytes: Number(rss) * 1024,
      command: command.join(' '),
    }));
  const tree = new Set([serverPid]);
  for (let grown = true; grown; ) {
    grown = false;
    for (const row of rows) {
      if (tree.has(row.ppid) && !tree.has(row.pid)) {
        tree.add(row.pid);
        grown = true;
      }
    }
  }
  return rows.filter((row) => tree.has(row.pid)).map(({ pid, command, rssBytes }) => ({ pid, command, rssBytes }));
}

interface JvmHeap {
  usedBytes: number;
  committedBytes: number;
  /** The old generation alone: what survives young collections, where a leak would pile up. */
  oldUsedBytes: number;
  oldCommittedBytes: number;
}

/** The JVM's heap from jstat, when the machine's Java has it (a JDK; a bare JRE does not). */
function jvmHeap(pid: number): JvmHeap | undefined {
  const run = spawnSync('jstat', ['-gc', String(pid)], { encoding: 'utf8' });
  const [header, values] = (run.stdout ?? '').trim().split('\n');
  if (run.status !== 0 || !header || !values) return undefined;
  const columns = new Map(
    header
      .trim()
      .split(/\s+/)
      .map((name, index) => [name, Number(values.trim().split(/\s+/)[index]) * 1024]),
  );
  const sum = (names: string[]) => names.reduce((total, name) => total + (columns.get(name) ?? 0), 0);
  return {
    usedBytes: sum(['S0U', 'S1U', 'EU', 'OU']),
    committedBytes: sum(['S0C', 'S1C', 'EC', 'OC']),
    oldUsedBytes: sum(['OU']),
    oldCommittedBytes: sum(['OC']),
  };
}

/**
 * The old generation after a full collection (`jcmd <pid> GC.run`), when the machine's Java has
 * jcmd: the occupancy jstat reads between collections also holds garbage that G1 has not yet
 * had reason to collect, which grows whether or not anything leaks.
 */
function liveOldGeneration(pid: number): number | undefined {
  if (spawnSync('jcmd', [String(pid), 'GC.run'], { encoding: 'utf8' }).status !== 0) return undefined;
  return jvmHeap(pid)?.oldUsedBytes;
}

/**
 * Whether the JVM's old generation levels off, from what is alive after a full collection at the
 * end of each window. DynamoDB Local keeps caches that fill and empty (a sawtooth), so a single
 * sample says little; a leak raises the floor: the lowest live value of the second half of the
 * run would stay above the first half's.
 */
function oldGenerationVerdict(liveOld: readonly (number | undefined)[]): string {
  if (liveOld.some((bytes) => bytes === undefined) || liveOld.length < 2)
    return 'The old generation was not sampled after full collections (no `jcmd` or `jstat`).';
  const samples = liveOld as number[];
  const half = Math.floor(samples.length / 2);
  const [firstHalf, secondHalf] = [samples.slice(0, half), samples.slice(half)];
  const [firstFloor, secondFloor] = [Math.min(...firstHalf), Math.min(...secondHalf)];
  const [firstPeak, secondPeak] = [Math.max(...firstHalf), Math.max(...secondHalf)];
  const growth = secondFloor / firstFloor;
  const series = samples.map((bytes) => mib(bytes)).join(' → ');
  return `**JVM old generation, live** (used right after a full collection, at the end of each window): ${series}. Lowest in the first half ${mib(firstFloor)}, in the second ${mib(secondFloor)} (×${fixed(growth, 2)}); highest ${mib(firstPeak)} and ${mib(secondPeak)}. ${
    growth <= 1.05
      ? 'What survives every collection does not grow: it levels off.'
      : 'What survives every collection still grows: it does not level off within this run.'
  }`;
}

/** The -Xmx the JVM was started with, from its command line. */
function jvmHeapBound(pid: number): number | undefined {
  const args = spawnSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).stdout;
  const match = /-Xmx(\d+)([kmg])/i.exec(args);
  if (!match) return undefined;
  return Number(match[1]) * 1024 ** { k: 1, m: 2, g: 3 }[match[2]!.toLowerCase() as 'k' | 'm' | 'g'];
}

async function storePid(dataDir: string): Promise<number> {
  return (JSON.parse(await readFile(join(dataDir, STORE_PID_FILE), 'utf8')) as { pid: number }).pid;
}

function parentOf(pid: number): number {
  return Number(spawnSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim());
}

interface Window {
  latenciesMs: number[];
  statuses: Map<number, number>;
  networkErrors: number;
  processes: ProcessSample[];
  heap?: JvmHeap;
  /** The old generation right after a full collection: what the JVM keeps alive. */
  liveOldBytes?: number;
}

const newWindow = (): Window => ({ latenciesMs: [], statuses: new Map(), networkErrors: 0, processes: [] });

const progress = (message: string) => console.log(`[soak] ${message}`);

async function soak(): Promise<boolean> {
  const dataDir = await mkdtemp(join(tmpdir(), 'petstore-soak-'));
  let server: ServerProcess | undefined;
  const startServer = async () => {
    server = await startServerProcess({
      dataDir,
      env: { DEV_API_KEY: DEV_KEY, SEED_FILE: join(dataDir, 'seed.json'), LOG_LEVEL: 'info', HOST: '127.0.0.1' },
      // As a user runs it: npm, tsx's launcher, then the server's own Node process.
      command: ['npm', 'start'],
      detached: true,
      captureOutput: 'startup',
    });
    return server;
  };
  try {
    const seed = [updateInventory, adjustInventory].flatMap((operation) =>
      Array.from({ length: petsPerOperation }, (_, index) => ({
        petId: operation.pets!.firstId + index,
        quantity: operation.pets!.start,
        status: 'available',
      })),
    );
    await writeFileAtomically(join(dataDir, 'seed.json'), JSON.stringify(seed));
    const first = await startServer();
    const target = await openLocalTarget(dataDir);
    const { apiKey } = await target.admin.issue({ plan: 'enterprise', owner: 'soak', customLimits: UNTHROTTLED_LIMITS });
    await target.close();
    progress(
      `server ${first.process.pid} on ${first.baseUrl}; mix: ${OPERATIONS.map((operation) => operation.name).join(', ')}; ${clients} clients for ${durationMs / 1_000} s`,
    );

    // The quantities each pet may hold, given every answer seen: one once a write is acknowledged, two while one went unanswered.
    const possible = new Map<number, Set<number>>(seed.map((item) => [item.petId, new Set([item.quantity])]));
    const windows: Window[] = [];
    const killPhase = newWindow();
    const byOperation = new Map(OPERATIONS.map((operation) => [operation.name, 0]));
    let acknowledgedWrites = 0;
    let unansweredWrites = 0;
    let stopped = false;
    const startedAt = performance.now();
    const windowOf = (at: number) =>
      at - startedAt < durationMs ? (windows[Math.floor((at - startedAt) / windowMs)] ??= newWindow()) : killPhase;

    /** One request; its status, or undefined when no answer came (the connection failed or the request timed out). */
    const send = async ({ method, path, headers, body }: SoakRequest): Promise<{ status?: number; body?: string }> => {
      try {
        const response = await fetch(`${first.baseUrl}${path}`, {
          method,
          headers: { Authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        return { status: response.status, body: await response.text() };
      } catch {
        return {};
      }
    };

    const runClient = async (client: number) => {
      while (!stopped) {
        const operation = OPERATIONS[random(0, OPERATIONS.length - 1)]!;
        const request = operation.request(client);
        const sentAt = performance.now();
        const answer = await send(request);
        const window = windowOf(sentAt);
        window.latenciesMs.push(performance.now() - sentAt);
        if (answer.status === undefined) window.networkErrors += 1;
        else window.statuses.set(answer.status, (window.statuses.get(answer.status) ?? 0) + 1);
        byOperation.set(operation.name, byOperation.get(operation.name)! + 1);
        const { write } = request;
        if (!write) continue;
        if (answer.status === 200) {
          possible.set(write.petId, new Set([(JSON.parse(answer.body!) as { quantity: number }).quantity]));
          acknowledgedWrites += 1;
        } else if (answer.status === undefined) {
          // No answer: the write may or may not have happened, so both outcomes stay possible.
          const values = [...possible.get(write.petId)!];
          possible.set(write.petId, new Set([...values, ...values.map(write.ifApplied)]));
          unansweredWrites += 1;
        }
      }
    };

    const jvm = await storePid(dataDir);
    // The JVM runs under its watchdog shell, which the server's Node process started.
    const watchdog = parentOf(jvm);
    const nodePid = parentOf(watchdog);
    const roles = new Map([
      [first.process.pid!, 'npm'],
      [parentOf(nodePid), "tsx's launcher"],
      [watchdog, 'watchdog shell'],
    ]);
    const heapBound = jvmHeapBound(jvm);
    const sampler = setInterval(() => {
      const done = windows[Math.floor((performance.now() - startedAt) / windowMs) - 1];
      if (!done || done.processes.length > 0) return;
      done.processes = serverProcesses(first.process.pid!);
      done.heap = jvmHeap(jvm);
      done.liveOldBytes = liveOldGeneration(jvm);
      const node = done.processes.find((row) => row.pid === nodePid);
      progress(
        `window ${windows.indexOf(done) + 1}: ${integer(done.latenciesMs.length)} requests, p99 ${ms(percentile(done.latenciesMs, 99))}, Node RSS ${mib(node?.rssBytes ?? 0)}`,
      );
    }, 250);
    const load = Promise.all(Array.from({ length: clients }, (_, client) => runClient(client)));

    await sleep(durationMs + LOAD_BEFORE_KILL_MS);
    clearInterval(sampler);
    // The whole group at once: the Node process, the store's watchdog and its JVM, as a power cut would.
    process.kill(-first.process.pid!, 'SIGKILL');
    stopped = true;
    await first.exited;
    await load;
    // npm leads the group and is reaped first; the next start must not find the server or its JVM still running.
    for (const deadline = Date.now() + 10_000; [nodePid, jvm].some(isAlive) && Date.now() < deadline; ) await sleep(100);
    progress(`killed the server's process group (pid ${first.process.pid}) under load; restarting on ${dataDir}`);

    const restartedAt = performance.now();
    const restarted = await startServer();
    const restartMs = performance.now() - restartedAt;
    const listed = (await (await fetch(`${restarted.baseUrl}/inventory`, { headers: { Authorization: `Bearer ${apiKey}` } })).json()) as {
      petId: number;
      quantity: number;
    }[];
    const stored = new Map(listed.map((item) => [item.petId, item.quantity]));
    const lost = [...possible].filter(([petId, values]) => !values.has(stored.get(petId) ?? Number.NaN));
    restarted.process.kill('SIGTERM');
    await restarted.exited;

    const nodeRss = (window: Window) => window.processes.find((row) => row.pid === nodePid)?.rssBytes ?? Number.NaN;
    const jvmRss = (window: Window) => window.processes.find((row) => row.pid === jvm)?.rssBytes ?? Number.NaN;
    const fiveHundreds = [...windows, killPhase].reduce(
      (sum, window) => sum + [...window.statuses].filter(([status]) => status >= 500).reduce((total, [, count]) => total + count, 0),
      0,
    );
    /** Answers other than 200, and requests that got none. */
    const errorsOf = (window: Window) =>
      window.networkErrors + [...window.statuses].filter(([status]) => status !== 200).reduce((total, [, count]) => total + count, 0);
    const failed = windows.reduce((sum, window) => sum + errorsOf(window), 0);
    const [firstWindow, lastWindow] = [windows[0]!, windows.at(-1)!];
    const rssGrowth = nodeRss(lastWindow) / nodeRss(firstWindow);
    // Over the second half: a leak keeps growing there, a heap sizing itself to the load has stopped.
    const middleWindow = windows[Math.floor((windows.length - 1) / 2)]!;
    const lateRssGrowth = nodeRss(lastWindow) / nodeRss(middleWindow);
    const rate = (window: Window) => window.latenciesMs.length / (windowMs / 1_000);
    const p99Growth = percentile(lastWindow.latenciesMs, 99) / percentile(firstWindow.latenciesMs, 99);
    const heapPeak = Math.max(...windows.map((window) => window.heap?.usedBytes ?? 0));
    const targets = {
      fiveHundreds: fiveHundreds === 0,
      failed: failed === 0,
      lost: lost.length === 0,
      rss: rssGrowth <= 1.2,
      heap: heapBound !== undefined && windows.every((window) => window.heap !== undefined) && heapPeak <= heapBound,
      p99: p99Growth <= 1.5,
    };

    const otherProcesses = (window: Window) =>
      window.processes
        .filter((row) => row.pid !== nodePid && row.pid !== jvm)
        .map((row) => `${roles.get(row.pid) ?? row.command} ${mib(row.rssBytes)}`)
        .join(', ');
    // What the errors were: statuses other than 200, and requests that got no answer within REQUEST_TIMEOUT_MS or failed on the network.
    const errorKinds = (window: Window) =>
      [
        ...[...window.statuses].filter(([status]) => status !== 200).map(([status, count]) => `${integer(count)} × ${status}`),
        ...(window.networkErrors > 0 ? [`${integer(window.networkErrors)} without an answer`] : []),
      ].join(', ');
    const rows = windows.map((window, index) => {
      const errors = errorsOf(window);
      return [
        `${(index * windowMs) / 1_000}–${((index + 1) * windowMs) / 1_000} s`,
        integer(window.latenciesMs.length),
        fixed(window.latenciesMs.length / (windowMs / 1_000), 0),
        errors === 0 ? '0' : `**${integer(errors)}** (${errorKinds(window)})`,
        ms(percentile(window.latenciesMs, 50)),
        ms(percentile(window.latenciesMs, 99)),
        mib(nodeRss(window)),
        mib(jvmRss(window)),
        window.heap ? `${mib(window.heap.usedBytes)} / ${mib(window.heap.committedBytes)}` : 'no jstat',
        window.heap ? `${mib(window.heap.oldUsedBytes)} / ${mib(window.heap.oldCommittedBytes)}` : 'no jstat',
        window.liveOldBytes === undefined ? 'no jcmd' : mib(window.liveOldBytes),
        otherProcesses(window),
      ];
    });
    const killStatuses = [...killPhase.statuses].map(([status, count]) => `${integer(count)} × ${status}`).join(', ');
    const report = [
      '# Soak',
      '',
      `Written by \`npm run soak\` (bench/soak.ts) on ${new Date().toISOString()}, with \`--duration ${durationMs / 1_000} --clients ${clients} --window ${windowMs / 1_000} --pets ${petsPerOperation}\`. Machine: ${describeMachine()}; load average (1 min) ${fixed(loadavg()[0]!, 2)} at the end.`,
      '',
      `The server is \`npm start\` as a user runs it, on a fresh DATA_DIR: npm, tsx's launcher, the server's own Node process (request logging on, listening on 127.0.0.1 only) and the store, DynamoDB Local, in a JVM under its watchdog shell. ${clients} clients send requests one after another over kept-alive connections, each picking at random (equal weights) among: ${OPERATIONS.map((operation) => `\`${operation.name}\``).join(', ')}. The listing returns all ${integer(seed.length)} seeded pets. Every client writes pets of its own, so the last write acknowledged for a pet is known. An unthrottled enterprise key keeps the plan limits out of the way: every answer should be 200.`,
      '',
      `## Per ${windowMs / 1_000} s window`,
      '',
      "Latency is measured by the client, from sending the request to the end of the answer. Memory is sampled at the end of each window: the resident set (RSS) of every process of the server, found from its process tree (the JVM is the one named in `$DATA_DIR/dynamodb-local.pid`, the server's Node process the one that started its watchdog), and the JVM's heap (used / committed) from `jstat`, then its old generation once more right after a full collection (`jcmd <pid> GC.run`): what stays alive.",
      '',
      table(
        [
          'window',
          'requests',
          'req/s',
          'errors',
          'p50',
          'p99',
          'Node RSS',
          'JVM RSS',
          'JVM heap',
          'JVM old gen',
          'JVM old gen after a full GC',
          'other processes',
        ],
        rows,
      ),
      '',
      oldGenerationVerdict(windows.map((window) => window.liveOldBytes)),
      '',
      `Requests by operation, whole run: ${[...byOperation].map(([name, count]) => `\`${name}\` ${integer(count)}`).join(', ')}.`,
      '',
      '## SIGKILL under load, restart, every acknowledged write checked',
      '',
      `${LOAD_BEFORE_KILL_MS / 1_000} s after the last window, with the clients still sending, the server's whole process group (npm, tsx's launcher, the server's Node process, the watchdog shell and the JVM) got SIGKILL at once. Answers in that last stretch: ${killStatuses || 'none'}; ${integer(killPhase.networkErrors)} requests were cut off by the kill. The server was restarted on the same DATA_DIR (${fixed(restartMs / 1_000, 1)} s to listening, the store's JVM included) and every pet read back.`,
      '',
      `- ${integer(acknowledgedWrites)} writes acknowledged (200) over the run; ${integer(unansweredWrites)} cut off without an answer, whose pets may hold either value.`,
      `- ${integer(possible.size)} pets checked: **${integer(lost.length)} lost writes**${
        lost.length > 0
          ? ` (${lost
              .slice(0, 10)
              .map(([petId, values]) => `pet ${petId} holds ${stored.get(petId)}, expected one of ${[...values].join(' or ')}`)
              .join('; ')})`
          : ''
      }.`,
      '',
      '## Targets',
      '',
      table(
        ['target', 'figure', 'verdict'],
        [
          ['no 5xx', integer(fiveHundreds), verdict(targets.fiveHundreds, `${integer(fiveHundreds)} answers`)],
          [
            'no other error before the kill (non-200 answers, failed requests)',
            integer(failed),
            verdict(targets.failed, `${integer(failed)} requests`),
          ],
          ['no acknowledged write lost across the SIGKILL', integer(lost.length), verdict(targets.lost, `${integer(lost.length)} writes`)],
          [
            'Node RSS at the end ≤ 1.2× its RSS after the first window',
            `${mib(nodeRss(lastWindow))} / ${mib(nodeRss(firstWindow))} = ${ratio(rssGrowth)}`,
            verdict(targets.rss, mib(nodeRss(lastWindow) - 1.2 * nodeRss(firstWindow))),
          ],
          [
            `JVM heap within the bound it was given (${heapBound === undefined ? 'unknown' : mib(heapBound)})`,
            heapPeak > 0
              ? `peak used ${mib(heapPeak)}; RSS ${mib(jvmRss(firstWindow))} → ${mib(jvmRss(lastWindow))}`
              : 'no jstat on this machine',
            verdict(targets.heap, heapPeak > 0 ? mib(heapPeak - (heapBound ?? 0)) : 'not measured'),
          ],
          [
            'p99 of the last window ≤ 1.5× the first',
            `${ms(percentile(lastWindow.latenciesMs, 99))} / ${ms(percentile(firstWindow.latenciesMs, 99))} = ${ratio(p99Growth)}`,
            verdict(targets.p99, ms(percentile(lastWindow.latenciesMs, 99) - 1.5 * percentile(firstWindow.latenciesMs, 99))),
          ],
        ],
      ),
      '',
      ...(targets.rss
        ? []
        : [
            `**Node RSS target missed.** From the end of window ${windows.indexOf(middleWindow) + 1} to the end of the run its RSS went from ${mib(nodeRss(middleWindow))} to ${mib(nodeRss(lastWindow))} (${ratio(lateRssGrowth)}): ${lateRssGrowth <= 1.05 ? 'it grew while V8 sized its heap to the load, then stayed, which a leak would not do' : 'it still grew in the second half, as a leak would'}. The first window served ${fixed(rate(firstWindow), 0)} requests/s, the later ones ${fixed(Math.min(...windows.slice(1).map(rate)), 0)} to ${fixed(Math.max(...windows.slice(1).map(rate)), 0)}: the slower the start (a busy machine), the less of that growth falls inside the first window.`,
            '',
          ]),
    ];
    await writeFileAtomically(REPORT, report.join('\n'));
    progress(`wrote ${REPORT}`);
    // Correctness fails the run; the memory and latency figures are for reading, as benchmarks are.
    return targets.fiveHundreds && targets.failed && targets.lost;
  } finally {
    if (server && server.process.exitCode === null && server.process.signalCode === null) {
      process.kill(-server.process.pid!, 'SIGKILL');
      await server.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}

soak().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
