/**
 * `npm run keys -- <command>`: issue and manage API keys, on the local store (default) or on a
 * deployed stage (--stage staging|prod). See the README's "API keys" section.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ApiKeyRecord } from '../domain/api-keys.ts';
import { z } from 'zod';
import { limitsFor, PLAN_NAMES, type PlanLimits } from '../domain/plans.ts';
import { AUTHORIZER_CACHE_TTL_SECONDS, type DeploymentStage } from '../deployments.ts';
import { openLocalTarget, openStageTarget, type KeyTarget } from './key-targets.ts';

const USAGE = `Usage: npm run keys -- <command> [options]

Commands:
  issue --plan <free|pro|business|enterprise> --owner <name> [--per-minute N --per-day M]
  list
  revoke <keyId>
  set-plan <keyId> <plan> [--per-minute N --per-day M]
  unban <keyId>

Options:
  --stage <staging|prod>   operate on a deployed stage (AWS credentials needed); default: the local store
  --data-dir <dir>         the local store's directory (default: $DATA_DIR or .data)`;

const PlanName = z.enum(PLAN_NAMES);
const CustomLimits = z.strictObject({
  perMinute: z.int().min(1).max(1_000_000),
  perDay: z.int().min(1).max(1_000_000_000),
});

function customLimits(values: { 'per-minute'?: string; 'per-day'?: string }): PlanLimits | undefined {
  if (values['per-minute'] === undefined && values['per-day'] === undefined) return undefined;
  return CustomLimits.parse({ perMinute: Number(values['per-minute']), perDay: Number(values['per-day']) });
}

function describeKey(record: ApiKeyRecord, bannedUntil: number | undefined): string {
  const limits = limitsFor(record.plan, record.customLimits);
  const ban = bannedUntil !== undefined && bannedUntil > Date.now() / 1000 ? `  banned until ${new Date(bannedUntil * 1000).toISOString()}` : '';
  return `${record.keyId}  ${record.status.padEnd(7)}  ${record.plan.padEnd(10)}  ${limits.perMinute}/min ${limits.perDay}/day  ${record.owner}  created ${record.createdAt}${ban}`;
}

export async function runKeysCommand(argv: string[], target: (stage: DeploymentStage | undefined, dataDir: string) => Promise<KeyTarget>, print: (line: string) => void): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      plan: { type: 'string' },
      owner: { type: 'string' },
      'per-minute': { type: 'string' },
      'per-day': { type: 'string' },
      stage: { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...args] = positionals;
  if (values.help || command === undefined) {
    print(USAGE);
    return;
  }
  if (values.stage !== undefined && values.stage !== 'staging' && values.stage !== 'prod') throw new Error('--stage must be staging or prod.');
  const opened = await target(values.stage, resolve(values['data-dir'] ?? process.env.DATA_DIR ?? '.data'));
  const { admin } = opened;
  const keyIdArgument = () => {
    const keyId = args[0];
    if (!keyId) throw new Error(`${command} needs a keyId (see: npm run keys -- list).`);
    return keyId;
  };
  try {
    switch (command) {
      case 'issue': {
        if (!values.owner) throw new Error('issue needs --owner <name>.');
        const plan = PlanName.parse(values.plan);
        const limits = customLimits(values);
        const { apiKey, record } = await admin.issue({ plan, owner: values.owner, ...(limits ? { customLimits: limits } : {}) });
        print(`Issued ${record.keyId} (${record.plan}) for ${record.owner} on the ${opened.describe}.`);
        print(`API key (shown once; only its SHA-256 is stored): ${apiKey}`);
        break;
      }
      case 'list': {
        const records = await admin.list();
        if (records.length === 0) print(`No keys on the ${opened.describe}.`);
        for (const record of records) print(describeKey(record, await admin.bannedUntil(record.keyId)));
        break;
      }
      case 'revoke': {
        const record = await admin.revoke(keyIdArgument());
        print(`Revoked ${record.keyId}. Locally it is refused at once; on AWS within the authorizer cache TTL (${AUTHORIZER_CACHE_TTL_SECONDS} s).`);
        break;
      }
      case 'set-plan': {
        const limits = customLimits(values);
        const record = await admin.setPlan(keyIdArgument(), PlanName.parse(args[1]), limits);
        print(`${record.keyId} is now on the ${record.plan} plan.`);
        break;
      }
      case 'unban': {
        const keyId = keyIdArgument();
        await admin.unban(keyId);
        print(`Lifted any ban on ${keyId}.`);
        break;
      }
      default:
        throw new Error(`Unknown command "${command}".\n\n${USAGE}`);
    }
  } finally {
    await opened.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runKeysCommand(process.argv.slice(2), (stage, dataDir) => (stage ? openStageTarget(stage) : openLocalTarget(dataDir)), (line) => console.log(line)).catch(
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
}
