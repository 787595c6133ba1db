/**
 * `npm start`: the service on http://localhost:$PORT/v1, with its data in $DATA_DIR.
 * See the README for the environment variables.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { generateApiKey } from '../domain/api-keys.ts';
import { readBanPolicy } from '../config.ts';
import { startLocalApp } from './local-app.ts';
import { requireJava } from './local-store.ts';
import { DEMO_INVENTORY, readSeedFile } from './seed.ts';

const DEV_KEY_FILE = 'dev-api-key';
const DEV_PLANS = ['free', 'pro', 'business'] as const;

async function devApiKey(dataDir: string): Promise<{ apiKey: string; generated: boolean }> {
  const fromEnv = process.env.DEV_API_KEY;
  if (fromEnv) return { apiKey: fromEnv, generated: false };
  const file = join(dataDir, DEV_KEY_FILE);
  if (existsSync(file)) return { apiKey: (await readFile(file, 'utf8')).trim(), generated: false };
  const { key } = generateApiKey();
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return { apiKey: key, generated: true };
}

async function main(): Promise<void> {
  requireJava();
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT must be a port number, not "${process.env.PORT}".`);
  const host = process.env.HOST ?? '127.0.0.1';
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  const devPlan = DEV_PLANS.find((plan) => plan === (process.env.DEV_PLAN ?? 'free'));
  if (!devPlan) throw new Error(`DEV_PLAN must be one of ${DEV_PLANS.join(', ')}, not "${process.env.DEV_PLAN}".`);
  const banPolicy = readBanPolicy();
  await mkdir(dataDir, { recursive: true });

  const seed = process.env.SEED_FILE ? await readSeedFile(process.env.SEED_FILE) : DEMO_INVENTORY;
  const { apiKey, generated } = await devApiKey(dataDir);
  const app = await startLocalApp({ dataDir, port, host, seed, devApiKey: apiKey, devPlan, banPolicy, onNotice: (line) => console.log(line) });

  const shownUrl = app.baseUrl.replace('127.0.0.1', 'localhost');
  const lines = [
    `Pet Store inventory API listening on ${shownUrl}`,
    `  data: ${dataDir}${app.seeded > 0 ? ` (seeded ${app.seeded} entries)` : ''}; dev key plan: ${devPlan}`,
    `  API reference: ${shownUrl}/docs (no key needed)`,
  ];
  if (generated) {
    lines.push(
      `  dev API key (shown once, kept in ${join(dataDir, DEV_KEY_FILE)}): ${apiKey}`,
      `  try: curl -H "Authorization: Bearer ${apiKey}" ${shownUrl}/inventory`,
    );
  } else if (!process.env.DEV_API_KEY) {
    lines.push(`  try: curl -H "Authorization: Bearer $(cat ${join(dataDir, DEV_KEY_FILE)})" ${shownUrl}/inventory`);
  }
  console.log(lines.join('\n'));

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
