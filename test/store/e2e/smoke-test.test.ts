import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inventoryKey } from '../../../functions/adapters/dynamodb/stored-inventory-item.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreUnavailableError } from '../../../functions/domain/errors.ts';
import { HEALTH_OUTCOME_TTL_MS } from '../../../functions/domain/health.ts';
import { logger } from '../../../functions/logger.ts';
import { KeyAdmin } from '../../../local/key-admin.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { DEMO_INVENTORY } from '../../../contract/demo-inventory.ts';
import { CANARY_PET_ID, openSmokeTarget, runSmokeTest, type SmokeTarget } from '../../../tools/smoke/smoke-test.ts';
import { testAppStore } from '../../support/local-store.ts';
import { testAttribution } from '../../support/inventory.ts';

/** `npm run smoke` against the local server: every check, nothing written but its key, the temporary key revoked. */

let app: LocalApp;
let admin: KeyAdmin;
const store = testAppStore();

beforeAll(async () => {
  app = await startLocalApp({ ...store, seed: DEMO_INVENTORY, devApiKey: 'SmokeDevKey0000000000000000001', devPlan: 'free' });
  admin = new KeyAdmin(app.dependencies.apiKeys, app.dependencies.usageCounters);
});
afterAll(async () => {
  await app?.close();
});

const CANARY = { petId: CANARY_PET_ID, quantity: 7, status: 'available' } as const;

const target = (): SmokeTarget => ({
  baseUrl: app.baseUrl,
  admin,
  describe: 'local test server',
  close: async () => undefined,
});

async function smoke(): Promise<{ failed: number; lines: string[] }> {
  const lines: string[] = [];
  const failed = await runSmokeTest(target(), (line) => lines.push(line));
  return { failed, lines };
}

describe('the smoke test', () => {
  it('passes every check on a working stage and leaves no entry behind: its write on the canary pet is refused', async () => {
    const { failed, lines } = await smoke();

    expect(failed).toBe(0);
    expect(lines[0]).toMatch(new RegExp(`^Smoke test of the local test server at ${app.baseUrl}, with the temporary key key_\\w+:$`));
    expect(lines.slice(1).map((line) => line.replace(/: .*/, ''))).toEqual([
      '  ok    health',
      '  ok    listing and rate-limit headers',
      '  ok    refused write on the canary pet',
      '  ok    published /openapi.json',
      '  ok    published /docs',
      expect.stringMatching(/^All 5 checks passed; key_\w+ revoked\.$/),
    ]);
    expect(lines[3]).toBe(
      `  ok    refused write on the canary pet: PATCH /inventory/${CANARY_PET_ID} with If-Match: W/"0" 404 PET_NOT_FOUND, nothing written`,
    );
    expect(await app.dependencies.inventory.get(CANARY_PET_ID, { consistent: true })).toBeUndefined();
  });

  it.each([
    ['made by an earlier version of the tool', () => app.dependencies.inventory.putMany([CANARY], testAttribution())],
    [
      'written before entries had versions (which If-Match "0" would match)',
      () =>
        app.dependencies.client.send(
          new PutCommand({ TableName: store.tables.inventoryTable, Item: { ...inventoryKey(CANARY.petId), ...CANARY } }),
        ),
    ],
  ])('leaves a canary entry %s as it was: the write is refused with 412', async (_, put) => {
    await put();
    const before = await app.dependencies.inventory.get(CANARY_PET_ID, { consistent: true });

    const { failed, lines } = await smoke();

    expect(failed).toBe(0);
    expect(lines[3]).toBe(
      `  ok    refused write on the canary pet: PATCH /inventory/${CANARY_PET_ID} with If-Match: W/"0" 412 PRECONDITION_FAILED, nothing written`,
    );
    expect(await app.dependencies.inventory.get(CANARY_PET_ID, { consistent: true })).toEqual(before);
  });

  it('leaves the server nothing to log as refused: a page it does not read is cancelled, not a client error', async () => {
    const info = vi.spyOn(logger, 'info');

    const { failed } = await smoke();
    // A reset reaches the server a moment after the client let go.
    await sleep(200);

    expect(failed).toBe(0);
    expect(info.mock.calls.filter(([message]) => message === 'request refused')).toEqual([]);
    info.mockRestore();
  });

  it('revokes every key it issued', async () => {
    const smokeKeys = (await admin.list()).filter((record) => record.owner.startsWith('smoke test '));

    expect(smokeKeys.length).toBeGreaterThan(0);
    expect(smokeKeys.every((record) => record.status === 'revoked')).toBe(true);
  });

  it('reports a failing check in one line and counts it, and still revokes its key', async () => {
    // The outcome of the last probe answers for a second: the next one reads the store.
    await sleep(HEALTH_OUTCOME_TTL_MS);
    vi.spyOn(app.dependencies.inventory, 'get').mockRejectedValueOnce(new StoreUnavailableError());

    const { failed, lines } = await smoke();

    expect(failed).toBe(1);
    expect(lines[1]).toBe(
      '  FAIL  health: GET /health answered 503: {"code":"SERVICE_UNAVAILABLE","message":"The service is temporarily unavailable; retry after the time in Retry-After.","status":503}',
    );
    expect(lines.at(-1)).toMatch(/^1 of 5 checks failed; key_\w+ revoked\.$/);
  });

  it('says in one line to start a server when none runs on the data directory', async () => {
    await expect(openSmokeTarget(undefined, '/nonexistent/petstore-data')).rejects.toThrow(
      'No server runs on /nonexistent/petstore-data: start one with npm start (or name its directory with --data-dir).',
    );
  });
});
