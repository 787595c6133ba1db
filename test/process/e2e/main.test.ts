import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../../local/local-store.ts';
import { gone, serverProcessesPerTest, storePid, type ServerProcess } from '../../support/server-process.ts';

// The engine's side of a start (its JVM, its pid file, a DATA_DIR left by a crash): local-store.test.ts.
const servers = serverProcessesPerTest('server-process-');
const startServer = servers.start;

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const patch = (server: ServerProcess, key: string, petId: string, quantity: number) =>
  fetch(`${server.baseUrl}/inventory/${petId}`, {
    method: 'PATCH',
    headers: { ...bearer(key), 'Content-Type': 'application/json' },
    body: JSON.stringify({ quantity }),
  });

describe('npm start', () => {
  it('generates a dev key once, prints it with a curl line, keeps it in DATA_DIR, and shuts down cleanly on SIGTERM', async () => {
    const first = await startServer();
    const key = (await readFile(join(servers.dataDir(), 'dev-api-key'), 'utf8')).trim();
    expect(first.output()).toContain(`dev API key (shown once, kept in ${join(servers.dataDir(), 'dev-api-key')}): ${key}`);
    expect(first.output()).toContain(`curl -H "Authorization: Bearer ${key}" ${first.baseUrl}/inventory`);
    expect((await fetch(`${first.baseUrl}/inventory`, { headers: bearer(key) })).status).toBe(200);
    // The one start a clean shutdown needs is this one's.
    first.process.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(first.output()).toContain('SIGTERM: shutting down');

    const second = await startServer();

    expect(second.output()).not.toContain(key);
    expect(second.output()).toContain(`$(cat ${join(servers.dataDir(), 'dev-api-key')})`);
    expect((await fetch(`${second.baseUrl}/inventory`, { headers: bearer(key) })).status).toBe(200);
  });

  it('keeps every write answered 200 through a kill -9, takes its JVM down with it, and never re-seeds over data', async () => {
    const key = 'KillNineKey0123456789abcdefgh';
    const server = await startServer({ DEV_API_KEY: key });
    expect(server.output()).toContain('seeded 6 entries');
    for (let index = 1; index <= 5; index += 1) expect((await patch(server, key, String(index), 1000 + index)).status).toBe(200);
    expect((await patch(server, key, '9007199254740993', 77)).status).toBe(200);

    const jvm = await storePid(servers.dataDir());
    expect(isAlive(jvm)).toBe(true);

    server.process.kill('SIGKILL');
    await server.exited;
    // The Node process alone was killed: its JVM goes down with it.
    expect(await gone(jvm)).toBe(true);
    const restarted = await startServer({ DEV_API_KEY: key });

    expect(restarted.output()).not.toContain('seeded');
    const listed = await (await fetch(`${restarted.baseUrl}/inventory`, { headers: bearer(key) })).text();
    for (let index = 1; index <= 5; index += 1) expect(listed).toContain(`{"petId":${index},"quantity":${1000 + index},`);
    expect(listed).toContain('{"petId":9007199254740993,"quantity":77,');
  });

  // One start for both: each start costs a JVM.
  it('loads SEED_FILE with exact int64 ids, and gives the dev key the plan of DEV_PLAN', async () => {
    const seedFile = join(servers.dataDir(), 'seed.json');
    await writeFile(
      seedFile,
      '[{"petId": 9223372036854775807, "quantity": 3, "status": "sold"}, {"petId": 18014398509481985, "quantity": 1, "status": "available"}]',
    );
    const key = 'SeedFileKey0123456789abcdefgh';
    const server = await startServer({ DEV_API_KEY: key, SEED_FILE: seedFile, DEV_PLAN: 'pro' });

    const response = await fetch(`${server.baseUrl}/inventory`, { headers: bearer(key) });

    expect(await response.text()).toBe(
      '[{"petId":18014398509481985,"quantity":1,"status":"available","reserved":0,"available":1},{"petId":9223372036854775807,"quantity":3,"status":"sold","reserved":0,"available":3}]',
    );
    expect(response.headers.get('x-ratelimit-limit')).toBe('300');
  });

  it('refuses to start on a seed file that is not an InventoryItem array, and says why', async () => {
    const seedFile = join(servers.dataDir(), 'seed.json');
    await writeFile(seedFile, '[{"petId": 1, "quantity": -1, "status": "lost"}]');

    await expect(startServer({ SEED_FILE: seedFile })).rejects.toThrow(
      /SEED_FILE=\S+ cannot be used: entry 1 \(petId 1\): quantity must be an integer/,
    );
  });

  // Three starts, each with its JVM: more than the default 30 s on a busy machine. A restart with
  // the same key is the kill -9 test's and the dev key file's.
  it('accepts a changed DEV_API_KEY, also back to an earlier one, and only the current one works', { timeout: 90_000 }, async () => {
    const [first, second] = ['FirstDevKey0123456789abcdefgh', 'SecondDevKey0123456789abcdefg'];
    for (const key of [first, second, first]) {
      const server = await startServer({ DEV_API_KEY: key });
      const other = key === first ? second : first;
      expect((await fetch(`${server.baseUrl}/inventory`, { headers: bearer(key) })).status).toBe(200);
      expect((await fetch(`${server.baseUrl}/inventory`, { headers: bearer(other) })).status).toBe(401);
      server.process.kill('SIGTERM');
      await server.exited;
    }
  });

  it.each([
    [{ DEV_PLAN: 'gold' }, 'DEV_PLAN must be one of free, pro, business, not "gold".'],
    [{ PORT: 'abc' }, 'PORT must be a port number, not "abc".'],
    [{ DEV_API_KEY: 'not-a-key' }, "DEV_API_KEY must be 20 to 128 letters and digits (API Gateway's rule for key values)."],
  ])('refuses to start with %j, in one line, and leaves the new DATA_DIR empty', async (env, message) => {
    await expect(startServer(env)).rejects.toThrow(message);

    expect(await readdir(servers.dataDir())).toEqual([]);
  });
});
