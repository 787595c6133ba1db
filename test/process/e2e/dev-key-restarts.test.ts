import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverProcessesPerTest, type ServerProcess } from '../../support/server-process.ts';
import { localKeysCommand } from '../../support/keys-command.ts';

const servers = serverProcessesPerTest('dev-key-restarts-');
const startServer = (env: Record<string, string> = {}) => servers.start(env);

async function stop(server: ServerProcess): Promise<void> {
  server.process.kill('SIGTERM');
  await server.exited;
}

const keys = (...argv: string[]) => localKeysCommand(servers.dataDir(), ...argv);

/** The `keys list` line of one key, found by its owner and plan or by its keyId. */
async function listed(match: string): Promise<string> {
  const line = (await keys('list')).find((candidate) => candidate.includes(match));
  if (line === undefined) throw new Error(`no key listed with ${match}`);
  return line;
}

const keyIdOf = (line: string) => line.split(/\s+/)[0]!;

/** Each file of the directory by name, as the SHA-256 of its bytes. */
async function contentsOf(dir: string): Promise<Record<string, string>> {
  const contents: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort())
    contents[name] = createHash('sha256')
      .update(await readFile(join(dir, name)))
      .digest('hex');
  return contents;
}

const status = async (server: ServerProcess, key: string) =>
  (await fetch(`${server.baseUrl}/inventory`, { headers: { Authorization: `Bearer ${key}` } })).status;

describe('revoked keys stay revoked across restarts', { timeout: 60_000 }, () => {
  it('keeps a revoked generated dev key revoked, and generates a new one in its place', async () => {
    const first = await startServer();
    const revokedKey = (await readFile(join(servers.dataDir(), 'dev-api-key'), 'utf8')).trim();
    const keyId = keyIdOf(await listed('local developer'));
    await keys('revoke', keyId);
    expect(await status(first, revokedKey)).toBe(401);
    await stop(first);

    const restarted = await startServer();

    expect(await status(restarted, revokedKey)).toBe(401);
    expect(await listed(keyId)).toMatch(/ revoked /);
    const newKey = (await readFile(join(servers.dataDir(), 'dev-api-key'), 'utf8')).trim();
    expect(newKey).not.toBe(revokedKey);
    expect(restarted.output()).toContain(
      `The dev key in ${join(servers.dataDir(), 'dev-api-key')} (${keyId}) was revoked; generated a new one.`,
    );
    expect(restarted.output()).toContain(`dev API key (shown once, kept in ${join(servers.dataDir(), 'dev-api-key')}): ${newKey}`);
    expect(await status(restarted, newKey)).toBe(200);
  });

  // One data directory for both refusals: each start, refused or not, and each list after the server stopped costs a JVM.
  it('refuses, in one line each, a revoked key and a key issued with npm run keys as DEV_API_KEY, and leaves DATA_DIR as it was', async () => {
    const revokedKey = 'RevokedDevKey0123456789abcdef';
    // An empty inventory, which a start seeds: a refused start must not.
    const emptySeed = join(servers.dataDir(), 'empty-seed.json');
    await writeFile(emptySeed, '[]');
    const first = await startServer({ DEV_API_KEY: revokedKey, SEED_FILE: emptySeed });
    const revokedId = keyIdOf(await listed('local developer'));
    await keys('revoke', revokedId);
    const [, shown] = await keys('issue', '--plan', 'pro', '--owner', 'Acme Pets');
    const issuedKey = /: (\w+)$/.exec(shown!)![1]!;
    const issuedId = keyIdOf(await listed('Acme Pets'));
    await stop(first);
    const before = await contentsOf(servers.dataDir());

    const refusal = (env: Record<string, string>) =>
      startServer(env).then(
        () => '',
        (error: Error) => error.message.split('\n').filter(Boolean),
      );

    expect(await refusal({ DEV_API_KEY: revokedKey })).toEqual([
      'server exited before listening:',
      `DEV_API_KEY is the revoked key ${revokedId}, and revoked keys stay revoked: start with another DEV_API_KEY, or without one for a generated key.`,
    ]);
    expect(await refusal({ DEV_API_KEY: issuedKey, DEV_PLAN: 'free' })).toEqual([
      'server exited before listening:',
      `DEV_API_KEY is ${issuedId}, a key issued to "Acme Pets" with npm run keys; the dev key must be one of its own, since DEV_PLAN sets its plan: start with another DEV_API_KEY, or without one for a generated key.`,
    ]);
    expect(await contentsOf(servers.dataDir())).toEqual(before);
    const after = await keys('list');
    expect(after.find((line) => line.startsWith(`${revokedId} `))).toMatch(/ revoked /);
    expect(after.find((line) => line.startsWith(`${issuedId} `))).toMatch(/ active +pro /);
  });
});
