import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../functions/adapters/dynamodb/document-client.ts';
import { ENV } from '../functions/config.ts';
import { createDependencies, type ServiceDependencies } from '../local/service-dependencies.ts';
import type { ApiKeyRecord } from '../functions/domain/api-keys.ts';
import type { InventoryCount, PetStatus } from '../functions/domain/schemas.ts';
import { DEFAULT_BAN_POLICY } from '../functions/domain/plan-limiter.ts';
import { authorizerContext } from '../functions/http/caller.ts';
import { KeyAdmin } from '../local/key-admin.ts';
import { authorizerEvent as gatewayAuthorizerEvent, proxyEvent, type GatewayRequest } from '../local/gateway-events.ts';
import { provideLambdaStreaming } from '../local/lambda-streaming.ts';
import { createServiceTables, LOCAL_TABLES, startLocalStore, tableEnvironment } from '../local/local-store.ts';
import { writeInventory } from '../local/seed.ts';
import { recordStoreCalls, type StoreCall } from './consumed-capacity.ts';
import type { ApiRoute } from '../functions/routes.ts';

// The bench builds the service's handlers in its own process, as the local server does.
provideLambdaStreaming();

export { invokeWhole } from '../local/lambda-streaming.ts';

/** An enterprise key whose limits no benchmark reaches, so no run is cut short by a 429. */
export const UNTHROTTLED_LIMITS = { perMinute: 1_000_000, perDay: 1_000_000_000 } as const;

export const STATUSES: readonly PetStatus[] = ['available', 'pending', 'sold'];

/**
 * Pets `firstId`, `firstId + 1`, … with quantities 0–49 and statuses in turn: the same data in
 * every run, so response sizes (and the largest inventory that fits) are reproducible.
 */
export function benchInventory(count: number, firstId = 1n): InventoryCount[] {
  return Array.from({ length: count }, (_, index) => ({
    petId: firstId + BigInt(index),
    quantity: index % 50,
    status: STATUSES[index % STATUSES.length]!,
  }));
}

/** Every document client the service wired (data and counting have their own), for stubs and instrumentation. */
export function documentClientsOf(dependencies: ServiceDependencies): DynamoDBDocumentClient[] {
  return Object.values(dependencies).filter((value): value is DynamoDBDocumentClient => value instanceof DynamoDBDocumentClient);
}

export interface BenchStore {
  endpoint: string;
  dependencies: ServiceDependencies;
  /** The environment a deployed function reads its configuration from, pointed at this store. */
  functionEnv: Record<string, string>;
  apiKey: string;
  keyRecord: ApiKeyRecord;
  close(): Promise<void>;
}

/** The environment a bundled function reads its configuration from (functions/config.ts), over the bench's local tables. */
export function benchFunctionEnvironment(endpoint: string): Record<string, string> {
  return { ...tableEnvironment(LOCAL_TABLES), [ENV.dynamodbEndpoint]: endpoint };
}

/** The service's adapters over the bench's local tables at `endpoint`, wired as the local server wires them. */
export function serviceDependencies(endpoint: string): ServiceDependencies {
  return createDependencies({ ...LOCAL_TABLES, dynamodbEndpoint: endpoint, banPolicy: DEFAULT_BAN_POLICY });
}

/**
 * Dependencies of their own over the store whose every call is recorded and billed as computed
 * from the sizes of the items it reads and writes (consumed-capacity.ts), read through a bare
 * client the recording is not on: what sections 4 and Reservations bill their calls by.
 */
export function sizedStoreCalls(endpoint: string): { dependencies: ServiceDependencies; calls: StoreCall[]; close(): void } {
  const dependencies = serviceDependencies(endpoint);
  const sizer = createDocumentClient({ endpoint });
  return {
    dependencies,
    calls: recordStoreCalls(documentClientsOf(dependencies), sizer),
    close: () => {
      dependencies.close();
      sizer.destroy();
    },
  };
}

/** Runs `work` on every item, at most `inFlight` at once, taking the items in order. */
export async function eachInFlight<Item>(items: readonly Item[], inFlight: number, work: (item: Item) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, items.length) }, worker));
}

/** An in-memory DynamoDB Local with the service's tables, the given pets and an unthrottled key. */
export async function startBenchStore(pets: readonly InventoryCount[]): Promise<BenchStore> {
  const store = await startLocalStore();
  await createServiceTables(store.endpoint, LOCAL_TABLES);
  const dependencies = serviceDependencies(store.endpoint);
  await writeInventory(dependencies.client, LOCAL_TABLES.inventoryTable, pets);
  const { apiKey, record } = await new KeyAdmin(dependencies.apiKeys, dependencies.usageCounters).issue({
    plan: 'enterprise',
    owner: 'bench',
    customLimits: { ...UNTHROTTLED_LIMITS },
  });
  return {
    endpoint: store.endpoint,
    dependencies,
    functionEnv: benchFunctionEnvironment(store.endpoint),
    apiKey,
    keyRecord: record,
    close: async () => {
      dependencies.close();
      await store.close();
    },
  };
}

/** A reservation of one unit of `petId`, made through the service's domain: the id a reservation's route takes. */
export async function heldReservation(dependencies: ServiceDependencies, keyId: string, petId: bigint): Promise<string> {
  const { outcome } = await dependencies.idempotentWriter.reserve({
    requestId: 'bench',
    keyId,
    idempotencyKey: randomUUID(),
    request: { items: [{ petId, quantity: 1 }] },
  });
  if (!('reservation' in outcome)) throw new Error(`the bench's reservation was refused: ${outcome.error.message}`);
  return outcome.reservation.reservationId;
}

/** Bodies of the operations that take one, naming `petId` where a body names a pet; the others are sent without. */
const requestBody = (operationId: string, petId: bigint): unknown =>
  ({
    updateInventory: { quantity: 7 },
    adjustInventory: { delta: 1, reason: 'arrival' },
    adjustInventoryBatch: { adjustments: [{ petId: Number(petId), delta: 1, reason: 'arrival' }] },
    putLowStockThreshold: { threshold: 5 },
    reserveInventory: { items: [{ petId: Number(petId), quantity: 1 }] },
  })[operationId];

/**
 * The proxy event API Gateway sends a function behind the authorizer (its context included),
 * for any route of routes.ts: its path parameter (every route has at most one) is `parameter`,
 * by default 1, the pet the bench stores seed; a reservation's route takes a reservation's id. A
 * body that names a pet (a batch's, a reservation's) names `bodyPet`, by default pet 1 too.
 */
export function routeEvent(route: ApiRoute, record: ApiKeyRecord, parameter = '1', bodyPet = 1n): APIGatewayProxyEvent {
  const pathParameters = Object.fromEntries([...route.resource.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, parameter]));
  const body = requestBody(route.operationId, bodyPet);
  // An operation that requires an Idempotency-Key gets one of its own per event, so that each call applies rather than replays.
  const headers: Record<string, string> =
    body === undefined
      ? {}
      : { 'Content-Type': 'application/json', ...(route.idempotencyKey === 'required' ? { 'Idempotency-Key': randomUUID() } : {}) };
  return proxyEvent(
    benchRequest({
      method: route.method,
      resource: route.resource,
      path: route.resource.replace(/\{\w+\}/g, parameter),
      headers,
      multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
      pathParameters,
      body: body === undefined ? null : JSON.stringify(body),
    }),
    { principalId: record.keyId, context: authorizerContext(record), latencyMs: 0 },
  );
}

/** A request as API Gateway received it, for the bench's events. */
function benchRequest(request: Pick<GatewayRequest, 'method' | 'resource' | 'path'> & Partial<GatewayRequest>): GatewayRequest {
  return {
    stage: 'v1',
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: {},
    multiValueQueryStringParameters: {},
    pathParameters: {},
    body: null,
    requestId: 'bench',
    sourceIp: '127.0.0.1',
    protocol: 'HTTP/1.1',
    receivedAt: Date.now(),
    ...request,
  };
}

export { routeOf } from '../functions/routes.ts';

export function authorizerEvent(apiKey: string): APIGatewayRequestAuthorizerEvent {
  const headers = { Authorization: `Bearer ${apiKey}` };
  return gatewayAuthorizerEvent(
    benchRequest({
      method: 'GET',
      resource: '/inventory',
      path: '/inventory',
      headers,
      multiValueHeaders: { Authorization: [headers.Authorization] },
    }),
  );
}

/** The Lambda context the handlers read (request id, remaining time for Middy's timeout). */
export function lambdaContext(): Context {
  return {
    awsRequestId: 'bench',
    functionName: 'bench',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:bench',
    memoryLimitInMB: '1024',
    logGroupName: 'bench',
    logStreamName: 'bench',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
