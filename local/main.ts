/**
 * `npm start`: the service on http://localhost:$PORT/v1, with its data in $DATA_DIR.
 * See docs/developing.md, "Running it locally", for the environment variables.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { writeFileAtomically } from './atomic-file.ts';
import { generateApiKey } from '../functions/domain/api-keys.ts';
import { readBanPolicy } from '../functions/config.ts';
import {
  parseWebhookSecret,
  parseWebhookSubscriptions,
  webhookUrlForLogs,
  WebhookSettingError,
  type WebhookSubscription,
} from '../functions/domain/webhooks.ts';
import { INVENTORY_EVENT_TYPES } from '../functions/domain/vocabulary.ts';
import { startLocalApp } from './local-app.ts';
import { parsePublicBaseUrl } from './published-contract-routes.ts';
import { requireJava } from './local-store.ts';
import { DEMO_INVENTORY } from '../contract/demo-inventory.ts';
import { readSeedFile, SEED_FILE_VARIABLE } from './seed.ts';

const DEV_KEY_FILE = 'dev-api-key';
const DEV_PLANS = ['free', 'pro', 'business'] as const;

/**
 * DEV_API_KEY, else the key kept in the data directory, else a new one, which main keeps there
 * once the start succeeded: a refused start leaves no key that the next start would not show.
 */
async function devApiKey(file: string): Promise<{ apiKey: string; source: 'environment' | 'file' | 'generated' }> {
  const fromEnv = process.env.DEV_API_KEY;
  if (fromEnv) return { apiKey: fromEnv, source: 'environment' };
  if (existsSync(file)) return { apiKey: (await readFile(file, 'utf8')).trim(), source: 'file' };
  return { apiKey: generateApiKey().key, source: 'generated' };
}

/** WEBHOOK_URL and WEBHOOK_SECRET: both or neither; a bad one stops the start with one line saying which and why. */
function readWebhookSettings(env: NodeJS.ProcessEnv): { subscriptions: WebhookSubscription[]; signingKey: Buffer } | undefined {
  const { WEBHOOK_URL: urls, WEBHOOK_SECRET: secret } = env;
  if (!urls && !secret) return undefined;
  if (!urls) throw new WebhookSettingError('WEBHOOK_SECRET is set but WEBHOOK_URL is not: set both, or neither for no webhooks.');
  if (!secret)
    throw new WebhookSettingError(
      'WEBHOOK_URL is set but WEBHOOK_SECRET is not: set both (the secret is whsec_ and base64 of 24 to 64 random bytes).',
    );
  return {
    subscriptions: parseWebhookSubscriptions(urls, 'WEBHOOK_URL', { requireHttps: false }),
    signingKey: parseWebhookSecret(secret, 'WEBHOOK_SECRET'),
  };
}

async function main(): Promise<void> {
  // Listened for before anything starts: a signal during the start ends it once what it started is up, and closed.
  let app: Awaited<ReturnType<typeof startLocalApp>> | undefined;
  let stopping: string | undefined;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = signal;
    console.log(`${signal}: shutting down`);
    if (app) closeAndExit(app);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  requireJava();
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT must be a port number, not "${process.env.PORT}".`);
  const host = process.env.HOST ?? '127.0.0.1';
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  const devPlan = DEV_PLANS.find((plan) => plan === (process.env.DEV_PLAN ?? 'free'));
  if (!devPlan) throw new Error(`DEV_PLAN must be one of ${DEV_PLANS.join(', ')}, not "${process.env.DEV_PLAN}".`);
  const banPolicy = readBanPolicy();
  const publicBaseUrl = process.env.PUBLIC_BASE_URL ? parsePublicBaseUrl(process.env.PUBLIC_BASE_URL) : undefined;
  const webhooks = readWebhookSettings(process.env);

  const seedFile = process.env[SEED_FILE_VARIABLE];
  const seed = seedFile ? await readSeedFile(seedFile) : DEMO_INVENTORY;
  const devKeyFile = join(dataDir, DEV_KEY_FILE);
  let { apiKey, source } = await devApiKey(devKeyFile);
  // A revoked DEV_API_KEY refuses the start; a revoked key of the file is one the developer never chose, so it is replaced.
  const replaceRevokedDevKey = async (revokedKeyId: string) => {
    console.log(`The dev key in ${devKeyFile} (${revokedKeyId}) was revoked; generated a new one.`);
    apiKey = generateApiKey().key;
    source = 'generated';
    return apiKey;
  };
  const started = await startLocalApp({
    dataDir,
    port,
    host,
    seed,
    devApiKey: apiKey,
    ...(source === 'file' ? { replaceRevokedDevKey } : {}),
    devPlan,
    banPolicy,
    ...(publicBaseUrl ? { publicBaseUrl } : {}),
    ...(webhooks ? { webhooks } : {}),
    onNotice: (line) => console.log(line),
  });
  if (source === 'generated') {
    try {
      await writeFileAtomically(devKeyFile, `${apiKey}\n`, { mode: 0o600 });
    } catch (error) {
      await started.close();
      throw error;
    }
  }
  // Set only now: a signal during the write finds the start unfinished, and the end of main closes the app, once.
  app = started;

  const shownUrl = app.baseUrl.replace('127.0.0.1', 'localhost');
  const lines = [
    `Pet Store inventory API listening on ${shownUrl}`,
    `  data: ${dataDir}${app.seeded > 0 ? ` (seeded ${app.seeded} entries)` : ''}; dev key plan: ${devPlan}`,
    `  API reference: ${shownUrl}/docs (no key needed)`,
  ];
  if (source === 'generated') {
    lines.push(
      `  dev API key (shown once, kept in ${devKeyFile}): ${apiKey}`,
      `  try: curl -H "Authorization: Bearer ${apiKey}" ${shownUrl}/inventory`,
    );
  } else if (source === 'file') {
    lines.push(`  try: curl -H "Authorization: Bearer $(cat ${devKeyFile})" ${shownUrl}/inventory`);
  }
  if (webhooks)
    lines.push(
      `  webhooks: events are POSTed, signed, to ${webhooks.subscriptions
        .map(({ url, eventTypes }) =>
          eventTypes.length === INVENTORY_EVENT_TYPES.length
            ? webhookUrlForLogs(url)
            : `${webhookUrlForLogs(url)} (${eventTypes.join(', ')})`,
        )
        .join(', ')}`,
    );
  console.log(lines.join('\n'));

  if (stopping) closeAndExit(app);
}

function closeAndExit(app: { close(): Promise<void> }): void {
  app.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
