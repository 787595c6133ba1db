import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authenticate, hashApiKey } from '../../../functions/domain/api-keys.ts';
import { UsageError } from '../../../tools/keys/cli-arguments.ts';
import { runKeysCommand } from '../../../tools/keys/cli.ts';
import { LOCAL_TABLES } from '../../../local/local-store.ts';
import { STORE_ENDPOINT_FILE, startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { localKeysCommand } from '../../support/keys-command.ts';
import { temporaryDirectory } from '../../support/temporary-directories.ts';

const issuedKey = (lines: string[]) => /API key \(shown once; only its SHA-256 is stored\): ([A-Za-z0-9]+)/.exec(lines.join('\n'))![1]!;
const issuedId = (lines: string[]) => /Issued (key_[A-Za-z0-9]+)/.exec(lines[0]!)![1]!;

/** Where each column of a `keys list` line starts: columns are two spaces or more apart, a column's words one space. */
const columnStarts = (line: string) => [...line.matchAll(/(^| {2,})\S/g)].map((match) => match.index + match[1]!.length);

describe('npm run keys refuses bad arguments', () => {
  it.each([
    [['issue', '--plan', 'gold', '--owner', 'x'], '--plan must be one of free, pro, business, enterprise (got "gold").'],
    [['issue', '--owner', 'x'], '--plan is required: one of free, pro, business, enterprise.'],
    [['issue', '--plan', 'pro'], 'issue needs --owner <name>: who holds the key.'],
    [['set-plan', 'key_x'], 'set-plan <keyId> <plan>: the plan is required: one of free, pro, business, enterprise.'],
    [['set-plan', 'key_x', 'gold'], 'set-plan <keyId> <plan>: the plan must be one of free, pro, business, enterprise (got "gold").'],
    [['set-plan'], 'set-plan needs a keyId: npm run keys -- set-plan <keyId> (npm run keys -- list shows them).'],
    [
      ['issue', '--plan', 'enterprise', '--owner', 'x', '--per-minute', 'abc', '--per-day', '10'],
      '--per-minute must be a whole number from 1 to 1000000 (got "abc").',
    ],
    [
      ['issue', '--plan', 'enterprise', '--owner', 'x', '--per-minute', '10', '--per-day', '1e9'],
      '--per-day must be a whole number from 1 to 1000000000 (got "1e9").',
    ],
    [
      ['issue', '--plan', 'enterprise', '--owner', 'x', '--per-minute', '10'],
      '--per-minute and --per-day go together: an enterprise key takes both.',
    ],
    [['issue', '--plan', 'pro', '--owner', 'x', '--stage', 'dev'], '--stage must be one of staging, prod (got "dev").'],
    [['issue', '--plan', 'pro', '--owner', 'x', '--color'], "Unknown option '--color'; see npm run keys -- --help."],
    [['issue', '--plan'], "Option '--plan <value>' argument missing; see npm run keys -- --help."],
    [['frobnicate'], 'Unknown command "frobnicate": use one of issue, list, revoke, set-plan, unban (npm run keys -- --help).'],
    [['issue', '--plan', 'enterprise', '--owner', 'x'], 'an enterprise key needs --per-minute N and --per-day M.'],
    [
      ['issue', '--plan', 'pro', '--owner', 'x', '--per-minute', '10', '--per-day', '10'],
      "only enterprise keys take --per-minute and --per-day; pro has its plan's limits.",
    ],
    [
      ['issue', '--plan', 'enterprise', '--owner', 'x', '--per-minute', '100', '--per-day', '99'],
      "--per-day (99) is below --per-minute (100): a day's limit must allow at least one full minute.",
    ],
    [['issue', '--plan', 'pro', '--owner', 'x'.repeat(100_000)], '--owner takes at most 200 characters (got 100000).'],
    [
      ['issue', '--plan', 'pro', '--owner', 'Ann\nkey_forged  active   business'],
      '--owner must not hold control characters (newlines, tabs, terminal escape codes).',
    ],
    [
      ['issue', '--plan', 'pro', '--owner', 'Ann\u001b[2K\u001b[1A'],
      '--owner must not hold control characters (newlines, tabs, terminal escape codes).',
    ],
  ])('refuses %j before opening any store, in one line that names the flag', async (argv, message) => {
    const opened = vi.fn();

    const refusal = runKeysCommand(argv, opened, () => undefined);

    await expect(refusal).rejects.toThrow(new UsageError(message));
    expect(opened).not.toHaveBeenCalled();
  });
});

describe('npm run keys after the server was killed', () => {
  it('opens the store itself instead of trusting the endpoint file a dead server left', async () => {
    const dataDir = temporaryDirectory('keys-cli-');
    const keys = (...argv: string[]) => localKeysCommand(dataDir, ...argv);
    const server = await startLocalApp({ dataDir, seed: [], devApiKey: 'DevKey0123456789ABCDEFGHIJ', devPlan: 'free' });
    const endpointFile = join(dataDir, STORE_ENDPOINT_FILE);
    const left = await readFile(endpointFile, 'utf8');
    await server.close();
    // What kill -9 leaves: the file, naming a process that is gone.
    await writeFile(endpointFile, JSON.stringify({ ...JSON.parse(left), pid: 2 ** 22 + 1 }));

    const lines = await keys('issue', '--plan', 'free', '--owner', 'After the crash');

    expect(lines[0]).toMatch(new RegExp(`on the local store in ${dataDir}\\.$`));
    expect((await keys('list')).join('\n')).toContain('After the crash');
  });
});

// One server for these: each start of a store costs a JVM. Each test issues keys of its own and
// looks only at them, but for the dev key, whose long id the columns must fit.
describe('npm run keys on the store of a running server', () => {
  let serverDataDir: string;
  let app: LocalApp;
  beforeAll(async () => {
    serverDataDir = temporaryDirectory('keys-cli-server-');
    app = await startLocalApp({ dataDir: serverDataDir, seed: [], devApiKey: 'DevKey0123456789ABCDEFGHIJ', devPlan: 'free' });
  });
  afterAll(async () => {
    await app.close();
  });
  const serverKeys = (...argv: string[]) => localKeysCommand(serverDataDir, ...argv);

  it('issues a key that is stored only as its hash, and lists it without secrets', async () => {
    const issued = await serverKeys('issue', '--plan', 'pro', '--owner', 'Acme Pets');
    const apiKey = issuedKey(issued);
    expect(apiKey).toMatch(/^[A-Za-z0-9]{43}$/);

    const listed = await serverKeys('list');

    expect(listed.find((line) => line.startsWith(`${issuedId(issued)} `))).toMatch(
      new RegExp(`^${issuedId(issued)} +active +pro +300/min 10000/day +\\S+ +- +Acme Pets$`),
    );
    expect(listed.join('\n')).not.toContain(apiKey);
    expect(listed.join('\n')).not.toContain(hashApiKey(apiKey));
  });

  it('refuses to revoke a key that does not exist, with a clear message', async () => {
    await expect(serverKeys('revoke', 'key_nobody')).rejects.toThrow('No key has the id key_nobody.');
  });

  it('works on the store of a running server, whose keys then take effect at once', async () => {
    const issued = await serverKeys('issue', '--plan', 'enterprise', '--owner', 'Big Co', '--per-minute', '5000', '--per-day', '2000000');
    const apiKey = issuedKey(issued);
    const call = () => fetch(`${app.baseUrl}/inventory`, { headers: { Authorization: `Bearer ${apiKey}` } });

    const allowed = await call();
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('x-ratelimit-limit')).toBe('5000');

    await serverKeys('revoke', issuedId(issued));
    expect((await call()).status).toBe(401);

    const { Items } = await app.dependencies.client.send(new ScanCommand({ TableName: LOCAL_TABLES.apiKeysTable }));
    expect(JSON.stringify(Items)).not.toContain(apiKey);
  });

  it('changes a plan, dropping enterprise limits when leaving enterprise', async () => {
    const issued = await serverKeys('issue', '--plan', 'enterprise', '--owner', 'Big Co', '--per-minute', '5000', '--per-day', '2000000');
    const keyId = issuedId(issued);

    expect(await serverKeys('set-plan', keyId, 'business')).toEqual([`${keyId} is now on the business plan.`]);

    const { record } = await authenticate(app.dependencies.apiKeys, `Bearer ${issuedKey(issued)}`);
    expect(record).toMatchObject({ plan: 'business' });
    expect(record.customLimits).toBeUndefined();
  });

  it('lists the keys in columns that line up, under a header, whatever the lengths of ids, limits and owners', async () => {
    const bigCo = issuedId(
      await serverKeys('issue', '--plan', 'enterprise', '--owner', 'Big Co', '--per-minute', '5000', '--per-day', '2000000'),
    );
    const acme = issuedId(await serverKeys('issue', '--plan', 'pro', '--owner', 'Acme Pets of Springfield'));
    await serverKeys('revoke', acme);
    await app.dependencies.usageCounters.ban(bigCo, Math.floor(Date.now() / 1000) + 600);

    const listed = await serverKeys('list');

    // The dev key's id (key_dev…) is longer than an issued one's: the columns still start where the header's do.
    const rows = listed.filter((line) => line.startsWith('key_'));
    expect(rows.map((row) => row.split(' ')[0])).toEqual(expect.arrayContaining([expect.stringMatching(/^key_dev/), bigCo, acme]));
    for (const row of rows) expect(columnStarts(row)).toEqual(columnStarts(rows[0]!));
    expect(listed).toEqual([expect.stringMatching(/^keyId +status +plan +limits +created +banned until +owner$/), ...rows]);
    expect(columnStarts(listed[0]!)).toEqual(columnStarts(rows[0]!));
    expect(listed.find((line) => line.startsWith(bigCo))).toMatch(/ enterprise +5000\/min 2000000\/day +\S+ +\d{4}-\d\d-\d\dT\S+ +Big Co$/);
    expect(listed.find((line) => line.startsWith(acme))).toMatch(/ revoked +pro +300\/min 10000\/day +\S+ +- +Acme Pets of Springfield$/);
  });

  it('lifts a ban', async () => {
    const keyId = issuedId(await serverKeys('issue', '--plan', 'free', '--owner', 'Noisy'));
    await app.dependencies.usageCounters.ban(keyId, Math.floor(Date.now() / 1000) + 600);
    expect((await serverKeys('list')).find((line) => line.startsWith(keyId))).toMatch(/ \d{4}-\d\d-\d\dT\S+ +Noisy$/);

    await serverKeys('unban', keyId);

    expect(await app.dependencies.usageCounters.bannedUntil(keyId)).toBeUndefined();
  });

  it('refuses to change the plan of a revoked key, and leaves it revoked', async () => {
    const keyId = issuedId(await serverKeys('issue', '--plan', 'free', '--owner', 'Gone'));
    await serverKeys('revoke', keyId);

    await expect(serverKeys('set-plan', keyId, 'business')).rejects.toThrow(
      `${keyId} is revoked, so its plan cannot change; issue a new key instead (npm run keys -- issue).`,
    );

    expect((await serverKeys('list')).join('\n')).toMatch(new RegExp(`${keyId} +revoked +free `));
  });
});
