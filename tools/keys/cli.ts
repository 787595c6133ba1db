/**
 * `npm run keys -- <command>`: issue and manage API keys, on the local store (default) or on a
 * deployed stage (--stage staging|prod). See "API keys" in docs/api-guide.md.
 */
import type { ApiKeyRecord } from '../../functions/domain/api-keys.ts';
import { limitsFor, PLAN_NAMES, type PlanLimits, type PlanName } from '../../functions/domain/plans.ts';
import { KNOWN_API_KEY_SECONDS } from '../../functions/domain/known-api-keys.ts';
import type { DeploymentStage } from '../../lib/deployments.ts';
import { dataDirOf, oneOf, parseCommandLine, runTool, stageOf, UsageError, wholeNumber } from './cli-arguments.ts';
import { openLocalTarget, openStageTarget, type KeyTarget } from './key-targets.ts';
import { isMainModule } from '../main-module.ts';

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

const COMMANDS = ['issue', 'list', 'revoke', 'set-plan', 'unban'] as const;

function customLimits(values: { 'per-minute'?: string | undefined; 'per-day'?: string | undefined }): PlanLimits | undefined {
  const perMinute = wholeNumber('--per-minute', values['per-minute'], 1, 1_000_000);
  const perDay = wholeNumber('--per-day', values['per-day'], 1, 1_000_000_000);
  if (perMinute === undefined && perDay === undefined) return undefined;
  if (perMinute === undefined || perDay === undefined)
    throw new UsageError('--per-minute and --per-day go together: an enterprise key takes both.');
  if (perDay < perMinute)
    throw new UsageError(`--per-day (${perDay}) is below --per-minute (${perMinute}): a day's limit must allow at least one full minute.`);
  return { perMinute, perDay };
}

/** C0 and C1 controls and DEL: newlines, tabs and the ESC that starts a terminal's escape codes. */
function hasControlCharacters(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

const KEY_COLUMNS = ['keyId', 'status', 'plan', 'limits', 'created', 'banned until', 'owner'] as const;

/** A key's cells under KEY_COLUMNS; the owner last, as the one of any length. */
function keyCells(record: ApiKeyRecord, bannedUntil: number | undefined): string[] {
  const limits = limitsFor(record.plan, record.customLimits);
  const banned = bannedUntil !== undefined && bannedUntil > Date.now() / 1000 ? new Date(bannedUntil * 1000).toISOString() : '-';
  const owner = hasControlCharacters(record.owner) ? JSON.stringify(record.owner) : record.owner;
  return [record.keyId, record.status, record.plan, `${limits.perMinute}/min ${limits.perDay}/day`, record.createdAt, banned, owner];
}

/** Rows as lines whose columns line up: each padded to its column's widest cell, two spaces apart. */
function alignedLines(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_cell, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '));
}

export async function runKeysCommand(
  argv: string[],
  target: (stage: DeploymentStage | undefined, dataDir: string) => Promise<KeyTarget>,
  print: (line: string) => void,
): Promise<void> {
  const { values, positionals } = parseCommandLine(
    argv,
    {
      plan: { type: 'string' },
      owner: { type: 'string' },
      'per-minute': { type: 'string' },
      'per-day': { type: 'string' },
    },
    'keys',
  );
  const [commandName, ...args] = positionals;
  if (values.help || commandName === undefined) {
    print(USAGE);
    return;
  }
  const command = COMMANDS.find((known) => known === commandName);
  if (!command) throw new UsageError(`Unknown command "${commandName}": use one of ${COMMANDS.join(', ')} (npm run keys -- --help).`);
  // Every argument is checked before the store or the stage is opened: a mistake costs no AWS call.
  const request = keysRequest(command, args, values);
  const opened = await target(stageOf(values.stage), dataDirOf(values));
  const { admin } = opened;
  try {
    switch (request.command) {
      case 'issue': {
        const { apiKey, record } = await admin.issue({
          plan: request.plan,
          owner: request.owner,
          ...(request.limits ? { customLimits: request.limits } : {}),
        });
        print(`Issued ${record.keyId} (${record.plan}) for ${record.owner} on the ${opened.describe}.`);
        print(`API key (shown once; only its SHA-256 is stored): ${apiKey}`);
        break;
      }
      case 'list': {
        const records = await admin.list();
        if (records.length === 0) {
          print(`No keys on the ${opened.describe}.`);
          break;
        }
        const rows: string[][] = [[...KEY_COLUMNS]];
        for (const record of records) rows.push(keyCells(record, await admin.bannedUntil(record.keyId)));
        for (const line of alignedLines(rows)) print(line);
        break;
      }
      case 'revoke': {
        const record = await admin.revoke(request.keyId);
        // The counting write every request makes refuses it, whatever an authorizer still knows of the key.
        print(`Revoked ${record.keyId}. It is refused from its next request on, locally and on AWS.`);
        if (admin.hasGatewayKey(record)) {
          print(`Disabling its API Gateway key in ${KNOWN_API_KEY_SECONDS} s, once no authorizer still knows the key as active...`);
          await admin.disableGatewayKey(record);
          print('API Gateway key disabled.');
        }
        break;
      }
      case 'set-plan': {
        const record = await admin.setPlan(request.keyId, request.plan, request.limits);
        print(`${record.keyId} is now on the ${record.plan} plan.`);
        break;
      }
      case 'unban': {
        await admin.unban(request.keyId);
        print(`Lifted any ban on ${request.keyId}.`);
        break;
      }
    }
  } finally {
    await opened.close();
  }
}

type KeysRequest =
  | { command: 'issue'; plan: PlanName; owner: string; limits: PlanLimits | undefined }
  | { command: 'list' }
  | { command: 'revoke' | 'unban'; keyId: string }
  | { command: 'set-plan'; keyId: string; plan: PlanName; limits: PlanLimits | undefined };

function keysRequest(
  command: (typeof COMMANDS)[number],
  args: string[],
  values: Record<string, string | boolean | undefined>,
): KeysRequest {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const keyId = () => args[0] ?? fail(`${command} needs a keyId: npm run keys -- ${command} <keyId> (npm run keys -- list shows them).`);
  const limits = () => customLimits({ 'per-minute': text('per-minute'), 'per-day': text('per-day') });
  switch (command) {
    case 'issue':
      return {
        command,
        plan: oneOf('--plan', text('plan'), PLAN_NAMES),
        owner: ownerOf(text('owner')),
        limits: planLimits(oneOf('--plan', text('plan'), PLAN_NAMES), limits()),
      };
    case 'list':
      return { command };
    case 'revoke':
    case 'unban':
      return { command, keyId: keyId() };
    case 'set-plan': {
      const id = keyId();
      const plan = oneOf('set-plan <keyId> <plan>: the plan', args[1], PLAN_NAMES);
      return { command, keyId: id, plan, limits: planLimits(plan, limits()) };
    }
  }
}

/** Longest owner a key takes: a name or a team, shown on one line of `list`. */
const MAX_OWNER_LENGTH = 200;

/** The owner as `list` will print it: one line of visible text, so no row can be forged with newlines or terminal escape codes. */
function ownerOf(owner: string | undefined): string {
  if (!owner) fail('issue needs --owner <name>: who holds the key.');
  if (owner.length > MAX_OWNER_LENGTH) fail(`--owner takes at most ${MAX_OWNER_LENGTH} characters (got ${owner.length}).`);
  if (hasControlCharacters(owner)) fail('--owner must not hold control characters (newlines, tabs, terminal escape codes).');
  return owner;
}

/** Custom limits belong to enterprise keys, and an enterprise key needs them: a mistake of the command line, exit 2. */
function planLimits(plan: PlanName, limits: PlanLimits | undefined): PlanLimits | undefined {
  if (plan === 'enterprise' && !limits) fail('an enterprise key needs --per-minute N and --per-day M.');
  if (plan !== 'enterprise' && limits) fail(`only enterprise keys take --per-minute and --per-day; ${plan} has its plan's limits.`);
  return limits;
}

function fail(message: string): never {
  throw new UsageError(message);
}

if (isMainModule(import.meta.url)) {
  runTool(() =>
    runKeysCommand(
      process.argv.slice(2),
      (stage, dataDir) => (stage ? openStageTarget(stage) : openLocalTarget(dataDir)),
      (line) => console.log(line),
    ),
  );
}
