import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Each command-line tool runs its command only when it is the script Node was given: in a
 * checkout whose path has a space, and through a symbolic link to a checkout, they did nothing
 * and exited 0. Each is run here from a copy of the checkout at such a path, its --help among
 * its runs.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** What a checkout holds that is not the project's source. */
const NOT_SOURCE = new Set(['node_modules', '.git', 'cdk.out', '.data']);

let parent: string;
let checkout: string;
let linkedCheckout: string;
let emptyDir: string;

beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), 'main-module-'));
  checkout = join(parent, 'pet store checkout');
  await cp(ROOT, checkout, { recursive: true, filter: (source) => !NOT_SOURCE.has(basename(source)) });
  await symlink(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
  linkedCheckout = join(parent, 'linked');
  await symlink(ROOT, linkedCheckout);
  emptyDir = join(parent, 'empty dir');
  await mkdir(emptyDir);
});
afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

/** `node --import tsx <script> <args>` as npm runs it: from the checkout, which is the working directory. */
async function run(
  root: string,
  script: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, script), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}

describe('the tools, run from a checkout whose path has a space', () => {
  // The README's "-- --help lists the rest": each tool's usage, on standard output as the answer asked for, where it pages and pipes.
  it.each([
    ['keys', '--help', 'tools/keys/cli.ts'],
    ['inventory', '--help', 'tools/inventory-tool/cli.ts'],
    ['events', '--help', 'tools/events/cli.ts'],
    ['smoke', '--help', 'tools/smoke/smoke-test.ts'],
    ['smoke', '-h', 'tools/smoke/smoke-test.ts'],
  ] as const)('npm run %s -- %s prints its usage and options, and exits 0', async (tool, flag, script) => {
    const ran = await run(checkout, script, [flag]);

    expect(ran).toEqual({ code: 0, stdout: expect.stringMatching(new RegExp(`^Usage: npm run ${tool} -- `)), stderr: '' });
    expect(ran.stdout).toContain('--stage <staging|prod>');
    expect(ran.stdout).toContain('--data-dir <dir>');
  });

  it('tools/smoke/smoke-test.ts refuses an argument it does not take, pointing at --help', async () => {
    const ran = await run(checkout, 'tools/smoke/smoke-test.ts', ['help', '--data-dir', emptyDir]);

    expect(ran).toEqual({
      code: 2,
      stdout: '',
      stderr: 'npm run smoke takes no argument "help"; see npm run smoke -- --help.\n',
    });
  });

  it('tools/smoke/smoke-test.ts looks for the server on the data directory it is given', async () => {
    const ran = await run(checkout, 'tools/smoke/smoke-test.ts', ['--data-dir', emptyDir]);

    expect(ran).toEqual({
      code: 1,
      stdout: '',
      stderr: `No server runs on ${emptyDir}: start one with npm start (or name its directory with --data-dir).\n`,
    });
  });

  it('scripts/lambda-runtime-install.ts checks what the build needs before it starts', async () => {
    // No make, compiler or shell on PATH: the script stops at its first check, before any build.
    const ran = await run(checkout, 'scripts/lambda-runtime-install.ts', [], { PATH: emptyDir });

    expect(ran).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/^aws-lambda-ric cannot be built here: make not found/) });
  });

  it('and through a symbolic link to a checkout', async () => {
    const ran = await run(linkedCheckout, 'tools/keys/cli.ts', ['--help']);

    expect(ran).toEqual({ code: 0, stdout: expect.stringContaining('Usage: npm run keys -- <command> [options]'), stderr: '' });
  });
});
