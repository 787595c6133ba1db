/**
 * `npm run smoke -- [--stage staging|prod]`: what a deployer runs after `cdk deploy` (or beside
 * `npm start`) to see the stage answer as a client would, through the packaged client. It issues
 * a key for itself and revokes it at the end, and changes nothing else but the canary pet's
 * quantity, which it puts back. See "Smoke test after a deploy" in docs/deploying-and-operating.md.
 */
import { resolve } from 'node:path';
import { createInventoryClient, type ApiResult } from '../../client/index.ts';
import { createInventoryRepository } from '../../functions/adapters/dynamodb/inventory-repository.ts';
import { createDocumentClient } from '../../functions/adapters/dynamodb/document-client.ts';
import { TOOL_KEY_IDS, toolAttribution } from '../../functions/domain/change-attribution.ts';
import type { InventoryRepository } from '../../functions/domain/inventory-service.ts';
import { MAX_INT64 } from '../../functions/domain/pet-id.ts';
import type { KeyAdmin } from '../keys/key-admin.ts';
import { parseCommandLine, runTool, stageOf } from '../keys/cli-arguments.ts';
import { openLocalStore, openLocalTarget, openStageTarget, readStageOutputs } from '../keys/key-targets.ts';
import { runningServer } from '../../local/local-app.ts';
import { LOCAL_TABLES } from '../../local/local-store.ts';
import { STACK_OUTPUTS, type DeploymentStage } from '../../lib/deployments.ts';

/** The pet the smoke test writes to: the largest int64, so the round trip also shows ids kept exact. */
export const CANARY_PET_ID = MAX_INT64;
/** What a client reads without a key beside the operations: the published contract. */
const PUBLISHED_PAGES = ['/openapi.json', '/docs'] as const;

export interface SmokeTarget {
  /** The base address, ending in /v1. */
  baseUrl: string;
  admin: KeyAdmin;
  inventory: Pick<InventoryRepository, 'get' | 'putMany'>;
  describe: string;
  close(): Promise<void>;
}

interface Check {
  name: string;
  run(): Promise<string>;
}

class CheckFailed extends Error {}

function expectThat(condition: boolean, failure: string): void {
  if (!condition) throw new CheckFailed(failure);
}

function described(result: ApiResult<unknown>): string {
  return result.error ? `${result.status} ${result.error.code}: ${result.error.message}` : String(result.status);
}

/** Runs every check, prints one line each, and returns how many failed; the temporary key is revoked whatever happens. */
export async function runSmokeTest(target: SmokeTarget, print: (line: string) => void): Promise<number> {
  const { apiKey, record } = await target.admin.issue({ plan: 'pro', owner: `smoke test ${new Date().toISOString()}` });
  const petstore = createInventoryClient({ baseUrl: target.baseUrl, apiKey, timeoutMs: 15_000 });
  const checks: Check[] = [
    {
      name: 'health',
      run: async () => {
        const response = await fetch(`${target.baseUrl}/health`);
        const body = await response.text();
        expectThat(response.status === 200, `GET /health answered ${response.status}: ${body}`);
        return `GET /health 200 ${body}`;
      },
    },
    {
      name: 'listing and rate-limit headers',
      run: async () => {
        const listed = await petstore.listInventory();
        expectThat(listed.data !== undefined, `GET /inventory answered ${described(listed)}`);
        const limit = listed.rateLimit;
        expectThat(
          limit !== undefined && limit.remaining < limit.limit && limit.resetAt > Date.now() / 1000,
          `GET /inventory carried no usable X-RateLimit-* headers: ${JSON.stringify(limit)}`,
        );
        return `GET /inventory 200, ${listed.data!.length} entries, X-RateLimit ${limit!.remaining}/${limit!.limit} until ${new Date(limit!.resetAt * 1000).toISOString()}`;
      },
    },
    {
      name: 'update round trip on the canary pet',
      run: async () => {
        if (!(await target.inventory.get(CANARY_PET_ID)))
          await target.inventory.putMany(
            [{ petId: CANARY_PET_ID, quantity: 0, status: 'available' }],
            toolAttribution('import', TOOL_KEY_IDS.smokeTest),
          );
        const before = await petstore.getInventoryItem(CANARY_PET_ID);
        expectThat(before.data?.petId === CANARY_PET_ID, `GET /inventory/${CANARY_PET_ID} answered ${described(before)}`);
        const original = before.data!.quantity;
        const changed = original === 0 ? 1 : original - 1;
        const updated = await petstore.updateInventory(CANARY_PET_ID, { quantity: changed, changeFromQuantity: original });
        const reread = await petstore.getInventoryItem(CANARY_PET_ID);
        const restored = await petstore.updateInventory(CANARY_PET_ID, { quantity: original, changeFromQuantity: changed });
        expectThat(updated.data?.quantity === changed, `PATCH /inventory/${CANARY_PET_ID} answered ${described(updated)}`);
        expectThat(
          reread.data?.quantity === changed,
          `the update was not read back: ${described(reread)} ${JSON.stringify(reread.data?.quantity)}`,
        );
        expectThat(restored.data?.quantity === original, `the canary's quantity ${original} was not put back: ${described(restored)}`);
        return `pet ${CANARY_PET_ID}: ${original} → ${changed} (read back) → ${original}`;
      },
    },
    ...PUBLISHED_PAGES.map((page) => ({
      name: `published ${page}`,
      run: async () => {
        const response = await fetch(`${target.baseUrl}${page}`);
        await response.body?.cancel();
        expectThat(response.status === 200, `GET ${page} answered ${response.status}`);
        return `GET ${page} 200 ${response.headers.get('content-type')}`;
      },
    })),
  ];
  let failed = 0;
  try {
    print(`Smoke test of the ${target.describe} at ${target.baseUrl}, with the temporary key ${record.keyId}:`);
    for (const check of checks) {
      try {
        print(`  ok    ${check.name}: ${await check.run()}`);
      } catch (error) {
        failed += 1;
        print(`  FAIL  ${check.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } finally {
    await target.admin.revoke(record.keyId);
  }
  print(
    failed === 0
      ? `All ${checks.length} checks passed; ${record.keyId} revoked.`
      : `${failed} of ${checks.length} checks failed; ${record.keyId} revoked.`,
  );
  return failed;
}

/** The stage as the key tool finds it, and its ApiUrl; locally, the running `npm start` on dataDir. */
export async function openSmokeTarget(stage: DeploymentStage | undefined, dataDir: string): Promise<SmokeTarget> {
  if (!stage) {
    const server = await runningServer(dataDir);
    if (!server) throw new Error(`No server runs on ${dataDir}: start one with npm start (or name its directory with --data-dir).`);
    const [keys, store] = [await openLocalTarget(dataDir), await openLocalStore(dataDir)];
    return {
      baseUrl: server.baseUrl,
      admin: keys.admin,
      inventory: createInventoryRepository(store.client, LOCAL_TABLES.inventoryTable),
      describe: keys.describe,
      close: async () => {
        await keys.close();
        await store.close();
      },
    };
  }
  const { output } = await readStageOutputs(stage);
  const keys = await openStageTarget(stage);
  const client = createDocumentClient();
  return {
    baseUrl: output(STACK_OUTPUTS.apiUrl),
    admin: keys.admin,
    inventory: createInventoryRepository(client, output(STACK_OUTPUTS.inventoryTableName)),
    describe: keys.describe,
    close: async () => {
      client.destroy();
      await keys.close();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runTool(async () => {
    const { values } = parseCommandLine(process.argv.slice(2), { stage: { type: 'string' }, 'data-dir': { type: 'string' } }, 'smoke');
    const target = await openSmokeTarget(stageOf(values.stage), resolve(values['data-dir'] ?? process.env.DATA_DIR ?? '.data'));
    try {
      const failed = await runSmokeTest(target, (line) => console.log(line));
      if (failed > 0) process.exitCode = 1;
    } finally {
      await target.close();
    }
  });
}
