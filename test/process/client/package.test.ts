import { execFile, execFileSync } from 'node:child_process';
import { accessSync, constants, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyAdmin } from '../../../local/key-admin.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { DEMO_INVENTORY } from '../../../contract/demo-inventory.ts';
import { API_ERROR_CODES } from '../../../client/index.ts';
import { temporaryDirectory } from '../../support/temporary-directories.ts';
import { testAppStore } from '../../support/local-store.ts';
import { insideOneMinute } from '../../support/minute-window.ts';

/**
 * The client as another repository gets it: `npm pack`, the tarball installed into an empty
 * project without the network, and called from plain JavaScript on the machine's Node (20
 * here) and on the project's Node 24.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLIENT_DIR = join(ROOT, 'client');
const PRO_KEY = 'PackagedClientProKey000000001';
const run = promisify(execFile);

/** The environment without what the outer `npm run` sets (npm_config_local_prefix would point an inner npm at this repository). */
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    env: cleanEnv,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** The first `node` on PATH outside node_modules: the machine's own, not the project's devDependency. */
function machineNode(): string {
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    if (directory.includes('node_modules')) continue;
    const candidate = join(directory, 'node');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new Error('No node outside node_modules on PATH.');
}

/** A package's runtime dependencies and theirs, as installed in this repository's node_modules. */
function dependencyClosure(packageJson: { dependencies?: Record<string, string> }, found = new Set<string>()): Set<string> {
  for (const name of Object.keys(packageJson.dependencies ?? {})) {
    if (found.has(name)) continue;
    found.add(name);
    dependencyClosure(JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')), found);
  }
  return found;
}

async function packInto(directory: string, source: string, ignoreScripts: boolean): Promise<string> {
  const [packed] = JSON.parse(
    await npm(['pack', source, '--json', '--pack-destination', directory, ...(ignoreScripts ? ['--ignore-scripts'] : [])], CLIENT_DIR),
  ) as { filename: string }[];
  return join(directory, packed!.filename);
}

let app: LocalApp;
let project: string;
const clientPackage = JSON.parse(readFileSync(join(CLIENT_DIR, 'package.json'), 'utf8'));

beforeAll(async () => {
  app = await startLocalApp({ ...testAppStore(), seed: DEMO_INVENTORY, devApiKey: PRO_KEY, devPlan: 'pro' });
  const tarballs = temporaryDirectory('petstore-client-pack-');
  // The client is built by its prepack script; its dependencies are packed from node_modules, so nothing is fetched.
  const packed = [await packInto(tarballs, '.', false)];
  for (const name of dependencyClosure(clientPackage)) packed.push(await packInto(tarballs, join(ROOT, 'node_modules', name), true));
  project = temporaryDirectory('petstore-client-consumer-');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await npm(['install', '--offline', '--ignore-scripts', ...packed], project);
  for (const file of ['call-api.mjs', 'typed-use.ts', 'tsconfig.json'])
    copyFileSync(join(ROOT, 'test/process/client/package-consumer', file), join(project, file));
}, 180_000);

afterAll(async () => {
  await app?.close();
});

describe('the client package', () => {
  it('declares ESM exports with types, its runtime dependencies, and the Node versions it runs on', () => {
    expect(clientPackage.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js', default: './dist/index.js' });
    expect(clientPackage.engines.node).toBe('>=20.3');
    const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    // The repository's tests run the client against the same ranges it declares.
    expect(clientPackage.dependencies).toEqual({
      'openapi-fetch': rootPackage.devDependencies['openapi-fetch'],
      'structured-headers': rootPackage.devDependencies['structured-headers'],
    });
  });

  it('installs with its dependency and compiled JavaScript and declarations only', async () => {
    const installed = join(project, 'node_modules', clientPackage.name);
    const files = (await npm(['pack', '--dry-run', '--json', '--ignore-scripts'], installed)).trim();
    const paths = (JSON.parse(files) as { files: { path: string }[] }[])[0]!.files.map(({ path }) => path).sort();
    expect(paths.filter((path) => path.startsWith('dist/') && !/\.(js|d\.ts)$/.test(path))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/schema.d.ts', 'package.json']));
    expect(paths.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([]);
  });

  it("type-checks a TypeScript consumer against its declarations, with the API's and the client's error codes as one union", async () => {
    await expect(run(join(ROOT, 'node_modules/typescript/bin/tsc'), ['-p', project])).resolves.toMatchObject({ stdout: '' });
  });

  // The machine's Node is 20 here (and on CI), the oldest the package supports: its JSON.parse gives revivers no source text.
  const runtimes = [machineNode(), join(ROOT, 'node_modules/node/bin/node')].map((node) => ({
    node,
    version: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim(),
  }));

  it.each(runtimes)(
    'works from plain JavaScript on Node $version: exact ids, limits, request ids, typed errors, a 429 past the deadline',
    async ({ node, version }) => {
      const freeKey = await new KeyAdmin(app.dependencies.apiKeys, app.dependencies.usageCounters).issue({
        plan: 'free',
        owner: `package test ${node}`,
      });
      await insideOneMinute();

      const { stdout } = await run(node, ['call-api.mjs'], {
        cwd: project,
        env: { ...cleanEnv, BASE_URL: app.baseUrl, PRO_KEY, FREE_KEY: freeKey.apiKey },
      });

      const report = JSON.parse(stdout);
      expect(report.node).toBe(version);
      expect(report.apiErrorCodes).toBe(API_ERROR_CODES.length);
      expect(report.listed).toMatchObject({
        status: 200,
        petIds: DEMO_INVENTORY.map(({ petId }) => String(petId)),
        petIdType: 'bigint',
        rateLimit: { limit: 300 },
      });
      expect(report.listed.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(report.updated).toEqual({ petId: '9007199254740993', exact: true, quantity: 11 });
      expect(report.missing).toEqual({
        error: { code: 'PET_NOT_FOUND', message: 'No inventory entry exists for pet 424242.', status: 404 },
        hasRequestId: true,
        hasRateLimit: true,
      });
      expect(report.unreachable).toEqual({ status: 0, code: 'NETWORK_ERROR' });
      // The deadline (500 ms) is shorter than any Retry-After (at least 1 s): the 429 comes back at once, not retried.
      expect(report.limited).toMatchObject({
        status: 429,
        code: 'RATE_LIMIT_EXCEEDED',
        rateLimit: { limit: 60, remaining: 0 },
        retries: 0,
      });
      expect(report.limited.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    },
    60_000,
  );
});
