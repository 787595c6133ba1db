import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, processStat } from '../../../local/local-store.ts';
import { gone, SERVER_COMMAND, serverProcessesPerTest, storePid as storePidOf } from '../../support/server-process.ts';

// A file of its own, beside main.test.ts: each test starts a server and its JVM, and two
// files of about 80 s share the run's two workers where one of 167 s ran last, alone. That a SIGKILL
// of the Node process alone takes its JVM down is checked there, on the kill -9 test's own start.
const servers = serverProcessesPerTest('local-store-');
const startServer = servers.start;

/** The DynamoDB Local JVM serving servers.dataDir(). */
const storePid = () => storePidOf(servers.dataDir());

describe('npm start and its DynamoDB Local engine', () => {
  it('stops cleanly on a SIGTERM that arrives while it is still starting, and leaves no JVM behind', async () => {
    const [file, ...args] = SERVER_COMMAND;
    const child = spawn(file, args, {
      env: { ...process.env, PORT: '0', DATA_DIR: servers.dataDir(), LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    try {
      // The engine's pid file is written while the server starts, before it listens.
      while (!existsSync(join(servers.dataDir(), 'dynamodb-local.pid'))) await sleep(20);
      const jvm = await storePid();
      expect(output).not.toContain('listening on');

      child.kill('SIGTERM');

      expect(await exited).toEqual({ code: 0, signal: null });
      expect(output).toContain('SIGTERM: shutting down');
      expect(await gone(jvm)).toBe(true);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  it('ends a JVM that a killed server left behind, identified by its pid file, and says so in one line', async () => {
    const server = await startServer();
    const jvm = await storePid();
    // Kill the engine's watchdog first, so that nothing is left to end the JVM: what a crash of both would leave.
    const watchdog = Number(spawnSync('ps', ['-o', 'ppid=', '-p', String(jvm)], { encoding: 'utf8' }).stdout.trim());
    process.kill(watchdog, 'SIGKILL');
    server.process.kill('SIGKILL');
    await server.exited;
    expect(isAlive(jvm)).toBe(true);

    const restarted = await startServer();

    expect(restarted.output()).toContain(`Ended DynamoDB Local (pid ${jvm}) left running on ${servers.dataDir()}`);
    expect(await gone(jvm)).toBe(true);
  });

  it('stops the server, its Node children and the JVM when SIGTERM reaches the npm process alone', async () => {
    const server = await startServer({}, ['npm', 'start']);
    const jvm = await storePid();

    server.process.kill('SIGTERM');
    await server.exited;

    expect(await gone(jvm)).toBe(true);
    await expect(fetch(`${server.baseUrl}/inventory`)).rejects.toThrow();
  });

  it('refuses a second server on a DATA_DIR in use, naming the running one, in one line', async () => {
    const first = await startServer();

    const refusal = await startServer().then(
      () => '',
      (error: Error) => error.message,
    );

    const port = new URL(first.baseUrl).port;
    expect(refusal).toMatch(
      new RegExp(
        `^server exited before listening:\\n${servers.dataDir()} is in use by another server \\(pid ${first.process.pid}, http://127.0.0.1:${port}/v1\\); stop it, or start with another DATA_DIR.\\n$`,
      ),
    );
  });

  it('starts at once on the DATA_DIR of a killed server whose process is a zombie no parent reaps', async () => {
    // `sh` starts the server, then becomes a `sleep` that never waits for it: its exit leaves a zombie, as in a container without an init.
    const parent = await startServer({}, ['sh', '-c', '"$@" & exec sleep 600', 'sh', ...SERVER_COMMAND]);
    const { pid } = JSON.parse(await readFile(join(servers.dataDir(), 'store-endpoint.json'), 'utf8')) as { pid: number };
    expect(pid).not.toBe(parent.process.pid);
    try {
      process.kill(pid, 'SIGKILL');
      const deadline = Date.now() + 10_000;
      while (processStat(pid)?.state !== 'Z' && Date.now() < deadline) await sleep(50);
      expect(processStat(pid)?.state).toBe('Z');

      const restarted = await startServer();

      expect(restarted.output()).toContain(`The previous run on ${servers.dataDir()} did not shut down cleanly (process ${pid})`);
      expect((await fetch(`${restarted.baseUrl}/inventory`)).status).toBe(401);
    } finally {
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('starts on a DATA_DIR whose files name processes that another program now runs under the same pids', async () => {
    // The vitest worker stands for the program that got the pids: alive, but started at another time than the files say.
    const otherStart = String(Number(processStat(process.pid)!.startTime) + 1);
    await writeFile(
      join(servers.dataDir(), 'store-endpoint.json'),
      JSON.stringify({ endpoint: 'http://127.0.0.1:9', pid: process.pid, startTime: otherStart, baseUrl: 'http://127.0.0.1:9/v1' }),
    );
    await writeFile(
      join(servers.dataDir(), 'dynamodb-local.pid'),
      JSON.stringify({ pid: process.pid, startTime: otherStart, ownerPid: process.pid, ownerStartTime: otherStart, port: 9 }),
    );

    const server = await startServer();

    expect(server.output()).toContain(
      `The previous run on ${servers.dataDir()} did not shut down cleanly (process ${process.pid}); its store had already stopped.`,
    );
    expect(isAlive(process.pid)).toBe(true);
  });

  it('refuses a port in use, naming it, before it makes DATA_DIR (before the JVM and the seed), so that the next start shows the new key', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    const dataDir = join(servers.dataDir(), 'new data');
    try {
      await expect(startServer({ PORT: String(port), DATA_DIR: dataDir })).rejects.toThrow(
        `Port ${port} on 127.0.0.1 is in use by another program; start with another port, e.g. PORT=3001 npm start (PORT=0 picks a free one).\n`,
      );
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      blocker.close();
    }

    const started = await startServer({ DATA_DIR: dataDir });

    const keyFile = join(dataDir, 'dev-api-key');
    expect(started.output()).toContain(`dev API key (shown once, kept in ${keyFile}): ${(await readFile(keyFile, 'utf8')).trim()}`);
  });

  it('without Java, stops at once with one line that says what to install', async () => {
    const emptyPath = await mkdtemp(join(tmpdir(), 'no-java-'));
    try {
      const refusal = await startServer({ PATH: emptyPath }).then(
        () => '',
        (error: Error) => error.message,
      );
      expect(refusal.split('\n').filter(Boolean)).toEqual([
        'server exited before listening:',
        "The local store (AWS's DynamoDB Local) needs Java, and `java` was not found. Install a Java runtime, 17 or later: on Debian/Ubuntu `sudo apt-get install openjdk-17-jre-headless`, on macOS `brew install openjdk@17`.",
      ]);
    } finally {
      await rm(emptyPath, { recursive: true, force: true });
    }
  });
});
