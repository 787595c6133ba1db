import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, symlink, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventIdOf, inventoryChangedEvent } from '../../../functions/domain/inventory-events.ts';
import { webhookHeaders } from '../../../functions/domain/webhooks.ts';
import { toJson } from '../../../functions/int64-json.ts';
import { freePort } from '../../../local/local-store.ts';
import { petChange } from '../../support/pet-changes.ts';
import { temporaryDirectory } from '../../support/temporary-directories.ts';

/**
 * The receiver of docs/events.md, the one example receivers copy, run as the guide shows it (its
 * port aside) and sent webhooks signed and serialized as the service sends them, on the oldest
 * Node the README says runs the project (20) and on the project's own (24, vitest's).
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const GUIDE_PORT = ".listen(4000, '127.0.0.1')";
const OLDEST_NODE = 20;

/** The guide's receiver: the first js block after its heading. */
async function guideReceiver(): Promise<string> {
  const guide = await readFile(join(ROOT, 'docs/events.md'), 'utf8');
  const code = /\n### A receiver[^\n]*\n\n```js\n([\s\S]*?)```/.exec(guide)?.[1];
  if (!code?.includes(GUIDE_PORT)) throw new Error(`docs/events.md has no receiver listening with ${GUIDE_PORT}`);
  return code;
}

/**
 * A Node of that major version on this machine: on the PATH (where npm puts the project's Node 24
 * first, as node_modules/.bin/node) or where a system's Node is installed.
 */
function nodeOfMajor(major: number): string | undefined {
  const directories = [...(process.env.PATH ?? '').split(delimiter), '/usr/local/bin', '/usr/bin'];
  for (const directory of new Set(directories.filter(Boolean))) {
    const candidate = join(directory, 'node');
    if (!existsSync(candidate)) continue;
    const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim();
    if (version.startsWith(`v${major}.`)) return candidate;
  }
  return undefined;
}

const oldestNode = nodeOfMajor(OLDEST_NODE);
const RUNTIMES = [
  { name: `Node ${process.versions.node} (vitest's own)`, node: process.execPath },
  {
    name: oldestNode
      ? `Node ${OLDEST_NODE} (${oldestNode})`
      : `Node ${OLDEST_NODE}: SKIPPED, no Node ${OLDEST_NODE} on the PATH, in /usr/local/bin or in /usr/bin`,
    node: oldestNode,
  },
];

describe.each(RUNTIMES)("docs/events.md's receiver on $name", ({ node }) => {
  let receiver: ChildProcess;
  let url: string;
  let printed = '';
  let refusals = '';
  const signingKey = randomBytes(32);

  beforeAll(async () => {
    if (!node) return;
    const dir = temporaryDirectory('events-receiver-');
    // Where the receiver imports standardwebhooks from, as in the checkout the guide saves it in.
    await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const port = await freePort();
    await writeFile(join(dir, 'receiver.mjs'), (await guideReceiver()).replace(GUIDE_PORT, `.listen(${port}, '127.0.0.1')`));
    receiver = spawn(node, [join(dir, 'receiver.mjs')], {
      env: { ...process.env, WEBHOOK_SECRET: `whsec_${signingKey.toString('base64')}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    receiver.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    receiver.stderr!.on('data', (chunk: Buffer) => (refusals += chunk.toString()));
    url = `http://127.0.0.1:${port}/hooks`;
    const deadline = Date.now() + 30_000;
    while (
      !(await fetch(url, { method: 'POST' }).then(
        () => true,
        () => false,
      ))
    ) {
      if (receiver.exitCode !== null || Date.now() > deadline)
        throw new Error(`the guide's receiver did not listen:\n${printed}${refusals}`);
      await sleep(100);
    }
  });
  afterAll(async () => {
    if (receiver?.exitCode === null) {
      receiver.kill('SIGTERM');
      await new Promise((resolve) => receiver.once('exit', resolve));
    }
  });

  /** A change of the pet, signed and serialized as the service sends it. */
  function send(petId: bigint, version: number, key = signingKey): Promise<Response> {
    const change = petChange(petId, version);
    const message = { id: eventIdOf(change), body: toJson(inventoryChangedEvent(change)) };
    return fetch(url, { method: 'POST', headers: webhookHeaders(key, message, new Date()), body: message.body });
  }

  it.skipIf(!node)('prints a pet id above 2^53 with every digit', async () => {
    printed = '';

    const response = await send(9_007_199_254_740_993n, 2);

    expect(response.status).toBe(204);
    // The receiver's line comes through its stdout pipe, which may trail its answer.
    await vi.waitFor(() => expect(printed).toBe('9007199254740993 2 2\n'), { timeout: 10_000 });
  });

  it.skipIf(!node)('refuses a webhook signed with another secret, prints why, and prints the accepted one alone', async () => {
    printed = '';

    const refused = await send(7n, 1, randomBytes(32));
    const accepted = await send(8n, 1);

    expect([refused.status, accepted.status]).toEqual([400, 204]);
    // The receiver prints in the order it answers: once the accepted one's line is there, the refused one printed no such line before it.
    await vi.waitFor(() => expect(printed).toBe('8 1 1\n'), { timeout: 10_000 });
    await vi.waitFor(() => expect(refusals).toContain('refused evt_inventory_7_1: No matching signature found\n'), { timeout: 10_000 });
  });
});
