import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Each command-line tool runs its command only when it is the script Node was given: in a
 * checkout whose path has a space, and through a symbolic link to a checkout, they did nothing
 * and exited 0. Each is run here from a copy of the checkout at such a path.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** What a checkout holds that is not the project's source. */
const NOT_SOURCE = new Set(['node_modules', '.git', 'cdk.out', '.data']);

let parent: string;
let checkout: string;
let linkedCheckout: string;
let emptyDir: string;

beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), 'tool-entry-points-'));
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
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, script), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, output };
}

describe('the tools, run from a checkout whose path has a space', () => {
  it.each([
    ['tools/keys/cli.ts', ['--help'], 0, 'Usage: npm run keys -- <command> [options]'],
    ['tools/inventory-tool/cli.ts', ['--help'], 0, 'Usage: npm run inventory -- <command> [options]'],
    ['tools/events/cli.ts', ['--help'], 0, 'Usage: npm run events -- <command> [options]'],
  ] as const)('%s %s does its work', async (script, args, code, printed) => {
    const ran = await run(checkout, script, args);

    expect(ran).toEqual({ code, output: expect.stringContaining(printed) });
  });

  it('tools/smoke/smoke-test.ts looks for the server on the data directory it is given', async () => {
    const ran = await run(checkout, 'tools/smoke/smoke-test.ts', ['--data-dir', emptyDir]);

    expect(ran).toEqual({
      code: 1,
      output: `No server runs on ${emptyDir}: start one with npm start (or name its directory with --data-dir).\n`,
    });
  });

  it('scripts/lambda-runtime-install.ts checks what the build needs before it starts', async () => {
    // No make, compiler or shell on PATH: the script stops at its first check, before any build.
    const ran = await run(checkout, 'scripts/lambda-runtime-install.ts', [], { PATH: emptyDir });

    expect(ran).toEqual({ code: 1, output: expect.stringMatching(/^aws-lambda-ric cannot be built here: make not found/) });
  });

  it('and through a symbolic link to a checkout', async () => {
    const ran = await run(linkedCheckout, 'tools/keys/cli.ts', ['--help']);

    expect(ran).toEqual({ code: 0, output: expect.stringContaining('Usage: npm run keys -- <command> [options]') });
  });
});
