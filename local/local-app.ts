import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { createServer as createListener, type AddressInfo, type Server as Listener } from 'node:net';
import { writeFileAtomically } from './atomic-file.ts';
import { API_KEY_PATTERN, hashApiKey } from '../functions/domain/api-keys.ts';
import type { PlanName } from '../functions/domain/plans.ts';
import type { ServiceConfig } from '../functions/config.ts';
import { DEFAULT_BAN_POLICY, type BanPolicy } from '../functions/domain/plan-limiter.ts';
import { rateLimitHeaders } from '../functions/http/rate-limit-headers.ts';
import { createDependencies, type ServiceDependencies } from './service-dependencies.ts';
import { createAuthorizerHandler } from '../functions/handlers/authorizer-handler.ts';
import { createOperationHandlers } from './operation-handlers.ts';
import { KeyAdmin } from './key-admin.ts';
import { API_STAGE_NAME, apiRoutes, healthRoute } from '../functions/routes.ts';
import { createHealthHandler } from '../functions/handlers/health-handler.ts';
import { provideLambdaStreaming } from './lambda-streaming.ts';
import { createLocalServer, listen } from './local-server.ts';
import { publishedContractRoutes } from './published-contract-routes.ts';
import {
  createServiceTables,
  isAlive,
  LOCAL_TABLES,
  LocalStoreError,
  processIdentity,
  startLocalStore,
  type ServiceTableNames,
} from './local-store.ts';
import type { ImportedEntry } from './inventory-file.ts';
import { seedIfEmpty } from './seed.ts';
import { startInventoryStreamConsumer, type InventoryStreamConsumer } from './inventory-stream-consumer.ts';
import { createRecordInventoryChangesHandler } from '../functions/handlers/record-inventory-changes-handler.ts';
import { writesOfRecords } from '../functions/adapters/dynamodb/inventory-stream.ts';
import { changeFeedPart } from '../functions/parts/change-feed.ts';
import { historyPart } from '../functions/parts/history.ts';
import { buildParts } from '../functions/parts/part.ts';
import { createStoreClients } from '../functions/parts/store-clients.ts';
import { describeError, logger } from '../functions/logger.ts';
import type { DynamoDBRecord } from 'aws-lambda';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EventPublisher } from '../functions/domain/inventory-events.ts';
import type { WebhookDeliveryLoop } from '../functions/domain/webhook-delivery-loop.ts';
import type { WebhookSubscription } from '../functions/domain/webhooks.ts';
import type { WebhookRetryPolicy } from '../functions/domain/webhook-delivery.ts';
import { startWebhookDeliveries } from './webhook-delivery-worker.ts';
import { LOCAL_SWEEP_INTERVAL_MS, startReservationSweep } from './reservation-sweep.ts';
import { createWebhookOutbox } from './webhook-outbox.ts';

/** Where the local stream consumer keeps its position in the inventory's stream. */
export const HISTORY_CHECKPOINT_FILE = 'history-stream-checkpoint.json';

/** Written into the data directory while a server runs, so the key tool can reach its store. */
export const STORE_ENDPOINT_FILE = 'store-endpoint.json';

export interface StoreEndpoint {
  endpoint: string;
  /** The server's process: a file left by a killed server names a process that is gone (or a zombie, or a later process with the same pid). */
  pid: number;
  startTime?: string | undefined;
  /** Where the server answers, for the message a second server on the same data directory gives. */
  baseUrl: string;
}

/** The running server's store, if the endpoint file in dataDir was left by a server that still runs. */
export async function runningServer(dataDir: string): Promise<StoreEndpoint | undefined> {
  const endpointFile = join(dataDir, STORE_ENDPOINT_FILE);
  if (!existsSync(endpointFile)) return undefined;
  const running = JSON.parse(await readFile(endpointFile, 'utf8')) as StoreEndpoint;
  return isAlive(running) ? running : undefined;
}
const DEV_KEY_OWNER = 'local developer';

export interface LocalAppOptions {
  /** Where the store keeps its data; in memory when undefined. */
  dataDir?: string;
  /** An engine that is already running (the tests' shared one), used instead of starting one. */
  store?: { endpoint: string };
  /** The tables' names in the store; LOCAL_TABLES by default. */
  tables?: ServiceTableNames;
  /** Told, in one line, about anything the start had to clean up. */
  onNotice?: (line: string) => void;
  port?: number;
  host?: string;
  /** The entries an empty inventory starts with, and their low-stock thresholds where they carry one. */
  seed: readonly ImportedEntry[];
  devApiKey: string;
  /** Called when devApiKey was revoked, for a new key to register instead; without it a revoked devApiKey refuses the start. */
  replaceRevokedDevKey?: (revokedKeyId: string) => Promise<string>;
  devPlan: Exclude<PlanName, 'enterprise'>;
  banPolicy?: BanPolicy;
  /** Failed authentications per source address and minute; DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE when unset. */
  failedAuthenticationsPerMinute?: number;
  /** The base URL the published pages name (PUBLIC_BASE_URL, ending in /v1); the server's own address when unset. */
  publicBaseUrl?: string;
  /**
   * false: no stream consumer, so no history, feed or webhooks, and new tables without the
   * inventory's stream (see TableOptions). For tests that read none of them: recording 20,500
   * pets' changes held the tests' shared engine for minutes.
   */
  recordChanges?: boolean;
  /**
   * How often reservations past their expiresAt have their expiry recorded (LOCAL_SWEEP_INTERVAL_MS
   * by default); false: never by a sweep, only by the writes they stand in the way of (the test of exactness without cleanup).
   */
  reservationSweepMs?: number | false;
  /** Where events are POSTed, signed, each endpoint taking the types it names (WEBHOOK_URL, WEBHOOK_SECRET); no webhooks when unset. */
  webhooks?: { subscriptions: readonly WebhookSubscription[]; signingKey: Buffer; policy?: WebhookRetryPolicy };
}

export interface LocalApp {
  /** Base address, ending in /v1. */
  baseUrl: string;
  storeEndpoint: string;
  dependencies: ServiceDependencies;
  /** The consumer that records each change in its pet's history, as the stream's event source mapping does on AWS. */
  history: Pick<InventoryStreamConsumer, 'caughtUp'>;
  /** The webhook sender, when webhooks are configured. */
  webhooks: Pick<WebhookDeliveryLoop, 'idle'> | undefined;
  seeded: number;
  server: Server;
  close(): Promise<void>;
}

/** Why a start refuses its dev key, in one line. */
export class DevKeyError extends Error {
  override name = 'DevKeyError';
}

const ANOTHER_DEV_KEY = 'start with another DEV_API_KEY, or without one for a generated key.';

/**
 * Registers the developer's key with DEV_PLAN. A changed DEV_API_KEY gets a record of its own
 * (its keyId comes from its hash), and the earlier dev key's record is removed, so only the
 * current one works and a developer may switch back to an earlier one. A key revoked with
 * `npm run keys` stays revoked: it is replaced when replaceRevoked says how, refused otherwise.
 * A key issued with `npm run keys` is refused too: DEV_PLAN would move its plan. Every refusal
 * comes before its first write.
 */
async function registerDevKey(
  dependencies: ServiceDependencies,
  apiKey: string,
  plan: Exclude<PlanName, 'enterprise'>,
  replaceRevoked: ((revokedKeyId: string) => Promise<string>) | undefined,
): Promise<void> {
  const { apiKeys } = dependencies;
  const keyHash = hashApiKey(apiKey);
  const admin = new KeyAdmin(apiKeys, dependencies.usageCounters);
  const existing = await apiKeys.findByHash(keyHash);
  if (existing?.status === 'revoked') {
    if (!replaceRevoked)
      throw new DevKeyError(`DEV_API_KEY is the revoked key ${existing.keyId}, and revoked keys stay revoked: ${ANOTHER_DEV_KEY}`);
    return registerDevKey(dependencies, await replaceRevoked(existing.keyId), plan, undefined);
  }
  if (existing && existing.owner !== DEV_KEY_OWNER) {
    throw new DevKeyError(
      `DEV_API_KEY is ${existing.keyId}, a key issued to ${JSON.stringify(existing.owner)} with npm run keys; the dev key must be one of its own, since DEV_PLAN sets its plan: ${ANOTHER_DEV_KEY}`,
    );
  }
  if (!existing) await admin.issue({ apiKey, keyId: `key_dev${keyHash.slice(0, 12)}`, plan, owner: DEV_KEY_OWNER });
  else if (existing.plan !== plan) await apiKeys.update(keyHash, { plan });
  for (const earlier of await admin.list()) {
    if (earlier.owner === DEV_KEY_OWNER && earlier.keyHash !== keyHash && earlier.status === 'active')
      await apiKeys.delete(earlier.keyHash);
  }
}

/**
 * Binds the port before the store starts, so that a port in use refuses the start at once, before
 * the data directory is made or seeded (after the JVM's start and the seed, it took 6.9 s). The
 * HTTP server takes the bound socket over once it serves; a connection before that is closed at
 * once, as if nothing listened yet.
 */
async function bindPort(port: number, host: string): Promise<Listener> {
  const listener = createListener((socket) => socket.destroy());
  await listen(listener, port, host);
  return listener;
}

/**
 * Starts the store and serves the API on it. Whatever can refuse the start without the store (the
 * dev key's form, a data directory in use, the port) refuses it before anything is written to the
 * data directory; the dev key's refusals that need the store (revoked, or issued with npm run
 * keys) come before the seed and every write of a key, and can only come from a store that holds
 * that key, never from a new data directory's.
 */
export async function startLocalApp(options: LocalAppOptions): Promise<LocalApp> {
  const { dataDir } = options;
  if (!API_KEY_PATTERN.test(options.devApiKey))
    throw new DevKeyError("DEV_API_KEY must be 20 to 128 letters and digits (API Gateway's rule for key values).");
  const other = dataDir ? await runningServer(dataDir) : undefined;
  if (dataDir && other) {
    throw new LocalStoreError(
      `${dataDir} is in use by another server (pid ${other.pid}, ${other.baseUrl}); stop it, or start with another DATA_DIR.`,
    );
  }
  const listener = await bindPort(options.port ?? 0, options.host ?? '127.0.0.1');
  try {
    if (dataDir) await mkdir(dataDir, { recursive: true });
    const tables = options.tables ?? LOCAL_TABLES;
    const store = options.store
      ? { endpoint: options.store.endpoint, close: async () => undefined }
      : await startLocalStore({ ...(dataDir ? { dataDir } : {}), ...(options.onNotice ? { onNotice: options.onNotice } : {}) });
    try {
      await createServiceTables(store.endpoint, tables, { inventoryStream: options.recordChanges !== false });
      return await serve(options, tables, store, listener);
    } catch (error) {
      await store.close();
      throw error;
    }
  } catch (error) {
    listener.close();
    throw error;
  }
}

/** The app on a started store, served on the bound listener, which the HTTP server takes over last. */
async function serve(
  options: LocalAppOptions,
  tables: ServiceTableNames,
  store: { endpoint: string; close(): Promise<void> },
  listener: Listener,
): Promise<LocalApp> {
  const config: ServiceConfig = {
    ...tables,
    dynamodbEndpoint: store.endpoint,
    banPolicy: options.banPolicy ?? DEFAULT_BAN_POLICY,
    ...(options.failedAuthenticationsPerMinute ? { failedAuthenticationsPerMinute: options.failedAuthenticationsPerMinute } : {}),
  };
  const dependencies = createDependencies(config);
  // The key first: a refused key leaves an empty inventory unseeded.
  await registerDevKey(dependencies, options.devApiKey, options.devPlan, options.replaceRevokedDevKey);
  const seeded = await seedIfEmpty(dependencies.client, tables.inventoryTable, options.seed);
  // The consumer has a client of its own, as its function has on AWS: its writes are not the API's.
  const consumerStore = createStoreClients(config);
  const webhooks = options.webhooks ? startLocalWebhooks(consumerStore.client, tables, options.webhooks, options.onNotice) : undefined;
  const recordChanges = createRecordInventoryChangesHandler({
    writesOf: writesOfRecords,
    ...buildParts({ history: historyPart, changeFeed: changeFeedPart }, { stores: consumerStore, config }),
    publishers: webhooks ? [webhooks.publisher] : [],
  });
  const history =
    options.recordChanges === false
      ? notRecording()
      : await startInventoryStreamConsumer({
          endpoint: store.endpoint,
          inventoryTable: tables.inventoryTable,
          handle: (records) => recordChanges({ Records: records as DynamoDBRecord[] }),
          ...(options.dataDir ? { checkpointFile: join(options.dataDir, HISTORY_CHECKPOINT_FILE) } : {}),
          onError: (error) => logger.error('recording inventory changes failed; retrying', describeError(error)),
        });

  const sweepMs = options.reservationSweepMs ?? LOCAL_SWEEP_INTERVAL_MS;
  const sweep =
    sweepMs === false
      ? undefined
      : startReservationSweep(dependencies.reservationExpiry, sweepMs, (error) =>
          logger.error("recording reservations' expiries failed; retrying", describeError(error)),
        );

  const host = options.host ?? '127.0.0.1';
  const { port } = listener.address() as AddressInfo;
  const baseUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/${API_STAGE_NAME}`;
  provideLambdaStreaming();
  const handlers = await createOperationHandlers(dependencies);
  const uncountedRateLimitHeaders = () => rateLimitHeaders(dependencies.failedAuthentications.uncountedState());
  const server = createLocalServer({
    authorizer: createAuthorizerHandler(dependencies),
    uncountedRateLimitHeaders,
    routes: [
      ...apiRoutes.map((route) => ({ route, handler: handlers[route.operationId] })),
      ...publishedContractRoutes(uncountedRateLimitHeaders, () => options.publicBaseUrl ?? baseUrl),
      { route: healthRoute, handler: createHealthHandler(dependencies), authorized: false },
    ],
  });
  const closeWorkersAndClients = async () => {
    await sweep?.close();
    await history.close();
    await webhooks?.deliveries.close();
    consumerStore.close();
    dependencies.close();
  };
  const endpointFile = options.dataDir ? join(options.dataDir, STORE_ENDPOINT_FILE) : undefined;
  try {
    if (endpointFile)
      await writeFileAtomically(
        endpointFile,
        JSON.stringify({ endpoint: store.endpoint, ...processIdentity(process.pid), baseUrl } satisfies StoreEndpoint),
      );
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(listener, resolve));
  } catch (error) {
    await closeWorkersAndClients();
    if (endpointFile) await rm(endpointFile, { force: true });
    throw error;
  }

  return {
    baseUrl,
    storeEndpoint: store.endpoint,
    dependencies,
    history,
    webhooks: webhooks?.deliveries,
    seeded,
    server,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await closeWorkersAndClients();
      if (endpointFile) await rm(endpointFile, { force: true });
      await store.close();
    },
  };
}

/** The consumer of an app started with recordChanges: false. */
function notRecording(): InventoryStreamConsumer {
  return {
    caughtUp: () => Promise.reject(new Error('this app was started with recordChanges: false')),
    close: async () => undefined,
  };
}

/**
 * npm start's webhooks: the stream consumer queues each event, for each endpoint that takes its type, in the outbox (a table of the
 * store, written before the consumer saves its stream position) and wakes the sender.
 */
function startLocalWebhooks(
  client: DynamoDBDocumentClient,
  tables: ServiceTableNames,
  settings: NonNullable<LocalAppOptions['webhooks']>,
  onNotice: ((line: string) => void) | undefined,
): { publisher: EventPublisher; deliveries: WebhookDeliveryLoop } {
  const outbox = createWebhookOutbox(client, tables.webhookOutboxTable);
  const deliveries = startWebhookDeliveries({
    outbox,
    signingKey: settings.signingKey,
    endpoints: settings.subscriptions.map(({ url }) => url),
    ...(settings.policy ? { policy: settings.policy } : {}),
    onNotice: onNotice ?? ((line) => logger.warn(line)),
  });
  const publisher: EventPublisher = {
    async publish(events) {
      await outbox.enqueue(settings.subscriptions, events, Date.now());
      deliveries.wake();
    },
  };
  return { publisher, deliveries };
}
