import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes, type OperationId, routeOf } from '../../../functions/routes.ts';
import { toJson } from '../../../functions/int64-json.ts';
import { ROUTE_TABLE_ACCESS, type RouteTableAccess, TABLE_ACCESS } from '../../../lib/table-access.ts';
import { createOperationHandlers } from '../../../local/operation-handlers.ts';
import type { ServiceTableNames } from '../../../local/local-store.ts';
import { invokeWhole } from '../../../local/lambda-streaming.ts';
import { lambdaContext, proxyEvent } from '../../support/events.ts';
import { testAttribution } from '../../support/inventory.ts';
import { startTestStore, type TestStore } from '../../support/local-store.ts';
import { insideOneMinute } from '../../support/minute-window.ts';

/**
 * IAM grants what the adapters send, and nothing more (lib/table-access.ts). Every operation runs
 * against DynamoDB Local through each of its paths (success, refusal, replay, an expiry it must
 * record first), its store calls recorded by table and IAM action; what each sent must be within
 * its grants, and each action granted must be one it sent. The plan limiter's actions on the
 * usage counters, the same for every operation, are checked once, through to a ban.
 */

type Table = keyof RouteTableAccess | 'usageCounters';

/** The IAM action of each command: a transaction's are its actions' own (IAM has no TransactWriteItems action). */
function actionsOf(commandName: string, input: Record<string, unknown>): [tableName: string, action: string][] {
  if (commandName === 'TransactWriteItemsCommand') {
    const actions = { Update: 'UpdateItem', Put: 'PutItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' } as const;
    return (input.TransactItems as Record<string, { TableName: string }>[]).flatMap((item) =>
      Object.entries(item).map(
        ([kind, action]) => [action.TableName, `dynamodb:${actions[kind as keyof typeof actions]}`] as [string, string],
      ),
    );
  }
  if (commandName === 'BatchGetItemCommand' || commandName === 'BatchWriteItemCommand')
    return Object.keys(input.RequestItems as object).map((tableName) => [tableName, `dynamodb:${commandName.replace('Command', '')}`]);
  return [[input.TableName as string, `dynamodb:${commandName.replace('Command', '')}`]];
}

const operationOf = new AsyncLocalStorage<OperationId>();
const sent = new Map<OperationId, Map<Table, Set<string>>>();

let store: TestStore;
let handlers: Awaited<ReturnType<typeof createOperationHandlers>>;

function recordCalls(client: DynamoDBDocumentClient, tables: ServiceTableNames): void {
  const tableOf = new Map<string, Table>(Object.entries(tables).map(([key, name]) => [name, key.replace(/Table$/, '') as Table]));
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const operationId = operationOf.getStore();
      // Under npm start every transaction is followed by a ListTables (document-client.ts); no function on AWS sends one.
      if (operationId && context.commandName !== 'ListTablesCommand')
        for (const [tableName, action] of actionsOf(context.commandName!, args.input as Record<string, unknown>)) {
          const byTable = sent.get(operationId) ?? new Map<Table, Set<string>>();
          const table = tableOf.get(tableName) ?? (tableName as Table);
          byTable.set(table, (byTable.get(table) ?? new Set()).add(action));
          sent.set(operationId, byTable);
        }
      return next(args);
    },
    { step: 'initialize', name: 'recordTableAccess' },
  );
}

const CALLER = { keyId: 'key_table_access', plan: 'business', perMinute: 100_000, perDay: 1_000_000 };
const STOCKED = 1n;
const BATCHED = 2n;
const HELD = 3n;

interface Call {
  petId?: bigint;
  reservationId?: string;
  body?: unknown;
  query?: Record<string, string>;
  idempotencyKey?: string;
  caller?: typeof CALLER;
}

/** One request of the operation, through its handler, its store calls recorded under its name. */
async function call(operationId: OperationId, { petId, reservationId, body, query, idempotencyKey, caller = CALLER }: Call = {}) {
  const route = routeOf(operationId);
  const pathParameters = { ...(petId === undefined ? {} : { petId: String(petId) }), ...(reservationId ? { reservationId } : {}) };
  const headers = {
    ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
  };
  const event: APIGatewayProxyEvent = proxyEvent({
    httpMethod: route.method,
    resource: route.resource,
    path: route.resource.replace('{petId}', String(petId)).replace('{reservationId}', reservationId ?? ''),
    pathParameters,
    queryStringParameters: query ?? null,
    multiValueQueryStringParameters: query ? Object.fromEntries(Object.entries(query).map(([name, value]) => [name, [value]])) : null,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    body: body === undefined ? null : toJson(body),
    caller,
  });
  const answer = await operationOf.run(operationId, () => invokeWhole(handlers[operationId], event, lambdaContext));
  return { status: answer.statusCode, body: answer.body ? (JSON.parse(answer.body) as Record<string, unknown>) : undefined };
}

const reserve = async (petId: bigint, quantity: number, ttlSeconds = 3_600) => {
  const answer = await call('reserveInventory', { body: { items: [{ petId, quantity }], ttlSeconds }, idempotencyKey: randomUUID() });
  expect(answer.status).toBe(201);
  return answer.body!.reservationId as string;
};

beforeAll(async () => {
  store = await startTestStore();
  await store.dependencies.inventory.putMany(
    [STOCKED, BATCHED, HELD].map((petId) => ({ petId, quantity: 50, status: 'available' as const })),
    testAttribution('seed'),
  );
  recordCalls(store.dependencies.client, store.tables);
  recordCalls(store.dependencies.countingClient, store.tables);
  handlers = await createOperationHandlers(store.dependencies);
}, 60_000);
afterAll(async () => store?.close());

describe('the store calls of every operation, through each of its paths', () => {
  it('stay within its grants, and use every action granted', async () => {
    await call('listInventory');
    await call('listInventory', { query: { lowStock: 'true' } });
    await call('getInventoryItem', { petId: STOCKED });
    await call('getPetById', { petId: STOCKED });
    await call('listInventoryChanges', { petId: STOCKED });
    await call('listInventoryChangeFeed');
    await call('listInventoryChangeFeed', { query: { cursor: 'ZmVlZC45OTk5OQ' } });

    // A count, one that changes nothing, a missing pet; then with a key: applied, replayed, refused.
    await call('updateInventory', { petId: STOCKED, body: { quantity: 40 } });
    await call('updateInventory', { petId: STOCKED, body: { quantity: 40 } });
    await call('updateInventory', { petId: 424_242n, body: { quantity: 1 } });
    const updateKey = randomUUID();
    await call('updateInventory', { petId: STOCKED, body: { quantity: 45 }, idempotencyKey: updateKey });
    await call('updateInventory', { petId: STOCKED, body: { quantity: 45 }, idempotencyKey: updateKey });
    await call('updateInventory', { petId: 424_242n, body: { quantity: 1 }, idempotencyKey: randomUUID() });

    // Applied and replayed, refused; and a removal that must first record the expiry of a hold past its expiresAt.
    const adjustKey = randomUUID();
    await call('adjustInventory', { petId: STOCKED, body: { delta: 1, reason: 'arrival' }, idempotencyKey: adjustKey });
    await call('adjustInventory', { petId: STOCKED, body: { delta: 1, reason: 'arrival' }, idempotencyKey: adjustKey });
    await call('adjustInventory', { petId: STOCKED, body: { delta: -1_000, reason: 'adjustment' }, idempotencyKey: randomUUID() });
    const batch = { adjustments: [STOCKED, BATCHED].map((petId) => ({ petId, delta: 1, reason: 'arrival' })) };
    await call('adjustInventoryBatch', { body: batch, idempotencyKey: randomUUID() });
    await call('adjustInventoryBatch', {
      body: { adjustments: [{ petId: BATCHED, delta: -1_000, reason: 'adjustment' }] },
      idempotencyKey: randomUUID(),
    });

    const committed = await reserve(STOCKED, 1);
    await call('getReservation', { reservationId: committed });
    await call('commitReservation', { reservationId: committed });
    await call('commitReservation', { reservationId: committed });
    await call('releaseReservation', { reservationId: await reserve(STOCKED, 1) });
    await call('reserveInventory', { body: { items: [{ petId: STOCKED, quantity: 100_000 }] }, idempotencyKey: randomUUID() });
    const cart = { items: [STOCKED, BATCHED].map((petId) => ({ petId, quantity: 1 })) };
    const twoPets = await call('reserveInventory', { body: cart, idempotencyKey: randomUUID() });
    await call('commitReservation', { reservationId: twoPets.body!.reservationId as string });

    // Holds of all of HELD's stock that expire: the next removal, reservation, commit and release each record an expiry first.
    const expiring = [await reserve(HELD, 50, 1)];
    await sleep(1_100);
    await call('adjustInventory', { petId: HELD, body: { delta: -1, reason: 'adjustment' }, idempotencyKey: randomUUID() });
    expiring.push(await reserve(HELD, 49, 1));
    await sleep(1_100);
    await call('adjustInventoryBatch', {
      body: { adjustments: [{ petId: HELD, delta: -1, reason: 'adjustment' }] },
      idempotencyKey: randomUUID(),
    });
    expiring.push(await reserve(HELD, 48, 1));
    await sleep(1_100);
    await call('reserveInventory', { body: { items: [{ petId: HELD, quantity: 48 }] }, idempotencyKey: randomUUID() });
    const toCommit = await reserve(BATCHED, 1, 1);
    const toRelease = await reserve(BATCHED, 1, 1);
    await sleep(1_100);
    await call('commitReservation', { reservationId: toCommit });
    await call('releaseReservation', { reservationId: toRelease });

    await call('putLowStockThreshold', { petId: STOCKED, body: { threshold: 5 } });
    await call('getLowStockThreshold', { petId: STOCKED });
    await call('deleteLowStockThreshold', { petId: STOCKED });

    const granted = (operationId: OperationId): Map<Table, Set<string>> => {
      const access: RouteTableAccess = ROUTE_TABLE_ACCESS[routeOf(operationId).inventoryAccess];
      return new Map(
        Object.entries(access).map(([table, intent]) => [
          table as Table,
          new Set<string>(TABLE_ACCESS[intent as keyof typeof TABLE_ACCESS]),
        ]),
      );
    };
    const sorted = (byTable: Map<Table, Set<string>> | undefined, without: Table[] = []) =>
      Object.fromEntries(
        [...(byTable ?? new Map<Table, Set<string>>())]
          .filter(([table]) => !without.includes(table))
          .map(([table, actions]) => [table, [...actions].sort()])
          .sort(([a], [b]) => String(a).localeCompare(String(b))),
      );
    for (const { operationId } of apiRoutes)
      expect({ operationId, sent: sorted(sent.get(operationId), ['usageCounters']) }).toEqual({
        operationId,
        sent: sorted(granted(operationId)),
      });
    const counting = new Set<string>(TABLE_ACCESS.usageCounting);
    for (const { operationId } of apiRoutes)
      expect({
        operationId,
        counting: [...(sent.get(operationId)?.get('usageCounters') ?? [])].filter((action) => !counting.has(action)),
      }).toEqual({
        operationId,
        counting: [],
      });
  }, 120_000);

  it('of the plan limiter, through to a ban, are the usage counters grant exactly', async () => {
    const tight = { ...CALLER, keyId: 'key_table_access_banned', perMinute: 1 };
    const banned = 'getInventoryItem';
    sent.delete(banned);
    await insideOneMinute();
    // One admitted, then rejections until the ban (the default policy bans at 120 rejections a minute).
    for (let index = 0; index < 125; index += 1) await call(banned, { petId: STOCKED, caller: tight });
    expect([...(sent.get(banned)?.get('usageCounters') ?? [])].sort()).toEqual([...TABLE_ACCESS.usageCounting].sort());
  }, 120_000);
});
