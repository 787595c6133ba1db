/**
 * Installs AWS's Runtime Interface Client (`aws-lambda-ric`) into `lambda-runtime/`, for
 * `npm run test:lambda-runtime`. Its install compiles curl, aws-lambda-cpp and a Node addon (about
 * 12 minutes on 2 cores), so it stays out of the project's `npm ci` and the addon is built once per
 * (aws-lambda-ric version, Node ABI, platform): later installs take the packages from the npm cache
 * without scripts and restore the addon from a cache directory outside the clone, so a fresh clone on
 * the same machine (as CI makes) does not build again.
 *
 * Run under the Node that runs the functions (the project's `node` devDependency, first on PATH in
 * npm scripts): the addon is compiled against that Node's headers, whatever Node npm itself runs on.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainModule } from '../tools/main-module.ts';

export const lambdaRuntimeDir = fileURLToPath(new URL('../lambda-runtime/', import.meta.url));
export const runtimeClientDir = path.join(lambdaRuntimeDir, 'node_modules', 'aws-lambda-ric');
const addonName = 'rapid-client.node';

const lockedVersion = (): string => {
  const lock = JSON.parse(readFileSync(path.join(lambdaRuntimeDir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  const version = lock.packages['node_modules/aws-lambda-ric']?.version;
  if (!version) throw new Error('lambda-runtime/package-lock.json does not lock aws-lambda-ric');
  return version;
};

export const buildKey = (): string =>
  `aws-lambda-ric-${lockedVersion()}-node-abi${process.versions.modules}-${process.platform}-${process.arch}`;

const cacheRoot = (): string =>
  process.env.LAMBDA_RUNTIME_CACHE_DIR ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'petstore-inventory', 'lambda-runtime');

/** The directory holding `include/node` for the running Node: official builds ship it beside `bin/`. */
const nodeHeadersDir = (): string | undefined => {
  const candidates = [
    path.resolve(path.dirname(process.execPath), '..'),
    path.resolve(path.dirname(process.execPath), '..', 'node_modules', `node-${process.platform}-${process.arch}`),
  ];
  const version = process.versions.node.split('.');
  return candidates.find((dir) => {
    const header = path.join(dir, 'include', 'node', 'node_version.h');
    if (!existsSync(header)) return false;
    const text = readFileSync(header, 'utf8');
    const part = (name: string) => /#define\s+\w+\s+(\d+)/.exec(text.split('\n').find((line) => line.includes(name)) ?? '')?.[1];
    return (
      part('NODE_MAJOR_VERSION') === version[0] && part('NODE_MINOR_VERSION') === version[1] && part('NODE_PATCH_VERSION') === version[2]
    );
  });
};

const onPath = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

/** What the build needs that this machine lacks, or undefined when it can build. */
export const missingPrerequisite = (): string | undefined => {
  if (process.platform !== 'linux') return `aws-lambda-ric builds only on Linux (this is ${process.platform})`;
  for (const tool of ['make', 'cc', 'c++', 'python3']) {
    if (!onPath(tool)) return `${tool} not found`;
  }
  if (!onPath('cmake') && !onPath('cmake3')) return 'cmake not found';
  if (!nodeHeadersDir()) return `no headers for Node ${process.version} beside ${process.execPath}`;
  return undefined;
};

const npm = (args: string[], env: NodeJS.ProcessEnv = process.env): void => {
  execFileSync('npm', args, { cwd: lambdaRuntimeDir, env, stdio: 'inherit' });
};

/** Installs the runtime client and returns how: already in place, restored, or built. */
export const installLambdaRuntime = (): 'in place' | 'restored' | 'built' => {
  const key = buildKey();
  const stamp = path.join(runtimeClientDir, '.build-key');
  const installedAddon = path.join(runtimeClientDir, addonName);
  if (existsSync(installedAddon) && existsSync(stamp) && readFileSync(stamp, 'utf8') === key) return 'in place';

  const cachedAddon = path.join(cacheRoot(), key, addonName);
  if (existsSync(cachedAddon)) {
    npm(['ci', '--ignore-scripts', '--no-audit', '--no-fund']);
    copyFileSync(cachedAddon, installedAddon);
    writeFileSync(stamp, key);
    return 'restored';
  }

  const headers = nodeHeadersDir();
  if (!headers) throw new Error(`no headers for Node ${process.version}`);
  // npm itself may run on another Node (and this machine's npmrc points nodedir at it): node-gyp must
  // compile against the headers of the Node that loads the addon.
  npm(['ci', '--no-audit', '--no-fund', '--foreground-scripts'], { ...process.env, npm_config_nodedir: headers });
  if (!existsSync(installedAddon)) throw new Error(`the aws-lambda-ric install produced no ${addonName}`);
  mkdirSync(path.dirname(cachedAddon), { recursive: true });
  const partial = `${cachedAddon}.${process.pid}.partial`;
  copyFileSync(installedAddon, partial);
  renameSync(partial, cachedAddon);
  writeFileSync(stamp, key);
  return 'built';
};

if (isMainModule(import.meta.url)) {
  const missing = missingPrerequisite();
  if (missing) {
    console.error(`aws-lambda-ric cannot be built here: ${missing} (it needs Linux, make, a C/C++ compiler, cmake and python3).`);
    process.exit(1);
  }
  const started = performance.now();
  const how = installLambdaRuntime();
  console.log(`aws-lambda-ric ${how} (${buildKey()}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
