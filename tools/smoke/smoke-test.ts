/**
 * `npm run smoke -- [--stage staging|prod]`: what a deployer runs after `cdk deploy` (or beside
 * `npm start`) to see the stage answer as a client would, through the packaged client. It issues
 * a key for itself and revokes it at the end, and writes nothing else: its write goes through the
 * whole write path (the function, its table rights, the conditional write) and is refused there.
 * See "Smoke test after a deploy" in docs/deploying-and-operating.md.
 */
import { createInventoryClient, type ApiResult } from '../../client/index.ts';
import { ErrorCode } from '../../functions/domain/errors.ts';
import { MAX_INT64 } from '../../functions/domain/pet-id.ts';
import { ERROR_STATUSES } from '../../functions/http/error-statuses.ts';
import type { KeyAdmin } from '../../local/key-admin.ts';
import { dataDirOf, parseCommandLine, runTool, stageOf, UsageError } from '../keys/cli-arguments.ts';
import { openLocalTarget, openStageTarget, readStageOutputs } from '../keys/key-targets.ts';
import { runningServer } from '../../local/local-app.ts';
import { STACK_OUTPUTS, type DeploymentStage } from '../../lib/deployments.ts';
import { isMainModule } from '../main-module.ts';

/**
 * The pet the smoke test's refused write names: the largest int64, so its answer also shows ids
 * kept exact. A weak tag never matches an If-Match (strong comparison, RFC 9110 13.1.1), not even
 * an entry written before entries had versions, which "0" would match: the write is refused
 * whether an entry exists (412) or not (404), and nothing is written. A write that succeeded would
 * leave its trace in the history, the change feed and every subscriber's webhooks, and an entry
 * removed afterwards would restart its versions.
 */
export const CANARY_PET_ID = MAX_INT64;
const UNMATCHABLE_ENTITY_TAG = 'W/"0"';
/** How long the refused write may take, as the client's calls (timeoutMs below). */
const CALL_TIMEOUT_MS = 15_000;
/** What a client reads without a key beside the operations: the published contract. */
const PUBLISHED_PAGES = ['/openapi.json', '/docs'] as const;

const USAGE = `Usage: npm run smoke -- [options]

Checks a running stage as a client sees it: GET /health, a listing with its X-RateLimit-* headers, a write the store
refuses on pet ${CANARY_PET_ID}, and the published ${PUBLISHED_PAGES.join(' and ')}. It issues itself a pro key, revokes
it at the end, and changes no stock. One line per check; exits 1 if a check failed.

Options:
  --stage <staging|prod>   check a deployed stage (AWS credentials needed); default: the running npm start
  --data-dir <dir>         the running npm start's directory (default: $DATA_DIR or .data)`;

export interface SmokeTarget {
  /** The base address, ending in /v1. */
  baseUrl: string;
  admin: KeyAdmin;
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
  const petstore = createInventoryClient({ baseUrl: target.baseUrl, apiKey, timeoutMs: CALL_TIMEOUT_MS });
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
      name: 'refused write on the canary pet',
      run: async () => {
        const before = await petstore.getInventoryItem(CANARY_PET_ID);
        expectThat(before.status === 200 || before.status === 404, `GET /inventory/${CANARY_PET_ID} answered ${described(before)}`);
        const response = await fetch(`${target.baseUrl}/inventory/${CANARY_PET_ID}`, {
          method: 'PATCH',
          headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', 'If-Match': UNMATCHABLE_ENTITY_TAG },
          body: JSON.stringify({ quantity: 0 }),
          signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
        });
        const text = await response.text();
        const refusal = ((): { code?: string } => {
          try {
            return JSON.parse(text) as { code?: string };
          } catch {
            return { code: `a body that is not JSON: ${text.slice(0, 80)}` };
          }
        })();
        const code = before.status === 200 ? ErrorCode.preconditionFailed : ErrorCode.petNotFound;
        const expected = { status: ERROR_STATUSES[code], code };
        expectThat(
          response.status === expected.status && refusal.code === expected.code,
          `PATCH /inventory/${CANARY_PET_ID} with If-Match: ${UNMATCHABLE_ENTITY_TAG} answered ${response.status} ${JSON.stringify(refusal)}, not ${expected.status} ${expected.code}`,
        );
        const after = await petstore.getInventoryItem(CANARY_PET_ID);
        expectThat(
          after.status === before.status && after.response?.headers.get('etag') === before.response?.headers.get('etag'),
          `the refused write changed pet ${CANARY_PET_ID}: ${described(before)} before, ${described(after)} after`,
        );
        return `PATCH /inventory/${CANARY_PET_ID} with If-Match: ${UNMATCHABLE_ENTITY_TAG} ${response.status} ${refusal.code}, nothing written`;
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
    const keys = await openLocalTarget(dataDir);
    return { baseUrl: server.baseUrl, admin: keys.admin, describe: keys.describe, close: () => keys.close() };
  }
  const { output } = await readStageOutputs(stage);
  const keys = await openStageTarget(stage);
  return { baseUrl: output(STACK_OUTPUTS.apiUrl), admin: keys.admin, describe: keys.describe, close: () => keys.close() };
}

if (isMainModule(import.meta.url)) {
  runTool(async () => {
    const { values, positionals } = parseCommandLine(process.argv.slice(2), {}, 'smoke');
    if (values.help) {
      console.log(USAGE);
      return;
    }
    if (positionals.length > 0) throw new UsageError(`npm run smoke takes no argument "${positionals[0]}"; see npm run smoke -- --help.`);
    const target = await openSmokeTarget(stageOf(values.stage), dataDirOf(values));
    try {
      const failed = await runSmokeTest(target, (line) => console.log(line));
      if (failed > 0) process.exitCode = 1;
    } finally {
      await target.close();
    }
  });
}
