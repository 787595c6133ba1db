import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach } from 'vitest';
import { isAlive } from '../../local/local-store.ts';

/** `npm start` as a user runs it: a separate process, configured by the environment. */
export interface ServerProcess {
  process: ChildProcess;
  /** Where it answers, ending in /v1. */
  baseUrl: string;
  /** What it printed: everything, or only up to the listening line (see captureOutput). */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ServerProcessOptions {
  dataDir: string;
  env?: Record<string, string>;
  /** `node --import tsx local/main.ts` by default; `['npm', 'start']` to test npm's own process. */
  command?: readonly string[];
  /** In a process group of its own, so that the group (the server, its watchdog and the JVM) can be signalled at once. */
  detached?: boolean;
  /** 'startup' keeps only what was printed up to the listening line (a long run's request log is drained, not kept). */
  captureOutput?: 'all' | 'startup';
}

export const SERVER_COMMAND = [process.execPath, '--import', 'tsx', 'local/main.ts'] as const;

/** Starts the server on a free port and resolves once it listens; rejects with its output if it exits first. */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const [file, ...args] = options.command ?? SERVER_COMMAND;
  const child = spawn(file!, args, {
    env: { ...process.env, PORT: '0', DATA_DIR: options.dataDir, LOG_LEVEL: 'silent', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let output = '';
  let listening = false;
  // Looked for as each chunk arrives, not on a 50 ms timer: the tests start dozens of servers in a run.
  let announceListening: (baseUrl: string) => void = () => {};
  const keep = (chunk: Buffer) => {
    if (listening && options.captureOutput === 'startup') return;
    output += chunk.toString();
    const match = listening ? null : /listening on (http:\/\/localhost:\d+\/v1)/.exec(output);
    if (match) {
      listening = true;
      announceListening(match[1]!);
    }
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const baseUrl = await new Promise<string>((resolve, reject) => {
    announceListening = resolve;
    child.once('exit', () => reject(new Error(`server exited before listening:\n${output}`)));
  });
  return { process: child, baseUrl, output: () => output, exited };
}

/** The DynamoDB Local JVM serving a server's DATA_DIR, from the pid file the server keeps there. */
export async function storePid(dataDir: string): Promise<number> {
  return (JSON.parse(await readFile(join(dataDir, 'dynamodb-local.pid'), 'utf8')) as { pid: number }).pid;
}

/** Whether the process has ended within the time given (10 s by default). */
export async function gone(pid: number, withinMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(50);
  return !isAlive(pid);
}

const isRunning = (server: ServerProcess) => server.process.exitCode === null && server.process.signalCode === null;

/** Ends a server that still runs (SIGKILL), and waits for its exit; its JVM ends moments later, by its watchdog. */
export async function killServerProcess(server: ServerProcess): Promise<void> {
  if (isRunning(server)) server.process.kill('SIGKILL');
  await server.exited;
}

const STOP_GRACE_MS = 15_000;

/**
 * Ends a server the way a test's cleanup must: SIGTERM, so that it stops its JVM before it exits
 * and nothing writes to its data directory once this resolves (a SIGKILL leaves the JVM running
 * for a moment, and a directory removed meanwhile fails with ENOTEMPTY); SIGKILL past the grace.
 */
export async function stopServerProcess(server: ServerProcess): Promise<void> {
  if (!isRunning(server)) return;
  server.process.kill('SIGTERM');
  const stopped = await Promise.race([
    server.exited.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), STOP_GRACE_MS).unref()),
  ]);
  if (!stopped) await killServerProcess(server);
}

/**
 * For each test of the file, a DATA_DIR of its own and the servers started on it; after the
 * test, the servers still running are stopped (SIGTERM, stopServerProcess) and the directory removed.
 */
export function serverProcessesPerTest(prefix: string) {
  let dataDir = '';
  let running: ServerProcess[] = [];
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await Promise.all(running.map(stopServerProcess));
    running = [];
    await rm(dataDir, { recursive: true, force: true });
  });
  return {
    /** The current test's DATA_DIR. */
    dataDir: () => dataDir,
    /** Starts a server on the test's DATA_DIR: `node --import tsx local/main.ts` unless command says otherwise (`['npm', 'start']`). */
    async start(env: Record<string, string> = {}, command: readonly string[] = SERVER_COMMAND): Promise<ServerProcess> {
      const server = await startServerProcess({ dataDir, env, command });
      running.push(server);
      return server;
    },
  };
}
