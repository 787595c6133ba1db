import { createDependencies } from '../local/service-dependencies.ts';
import { DEFAULT_BAN_POLICY } from '../functions/domain/usage-limits.ts';
import { createAuthorizerHandler } from '../functions/handlers/authorizer-handler.ts';
import { createHttpHandlers } from '../local/http-handlers.ts';
import { KeyAdmin } from '../local/key-admin.ts';
import { inventoryTable } from '../functions/adapters/dynamodb/tables.ts';
import { LOCAL_TABLES } from '../local/local-store.ts';
import { apiRoutes } from '../functions/routes.ts';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../lib/deployments.ts';
import { readUnits, recordStoreCalls, writeUnits, type StoreCall } from './consumed-capacity.ts';
import { authorizerEvent, documentClientsOf, invokeWhole, lambdaContext, routeEvent, routeOf, type BenchStore } from './fixtures.ts';
import type { ListingMeasurement } from './listing-at-scale.ts';
import { dollars, fixed, integer, table, verdict } from './markdown.ts';
import { PRICE_SOURCES, PRICES } from './prices.ts';

/** DynamoDB on-demand list prices in us-east-1, in force since AWS halved on-demand throughput prices on 1 November 2024. */
/** The steady client the cached column assumes: one request per second on one key. */
const UNKNOWN_PET_ID = '999999999';
/** The target for counting an admitted request, in $ per million requests: one write unit. */
const TARGET_COUNTING_USD_PER_MILLION = 0.65;

const usdPerMillion = (calls: readonly StoreCall[], authorizationShare = 0, authorization: readonly StoreCall[] = []) =>
  (readUnits(calls) + authorizationShare * readUnits(authorization)) * PRICES.usdPerMillionReadUnits +
  (writeUnits(calls) + authorizationShare * writeUnits(authorization)) * PRICES.usdPerMillionWriteUnits;

function describeCalls(calls: readonly StoreCall[]): string {
  const counts = new Map<string, number>();
  for (const call of calls) {
    const name = `${call.operation}${call.conditionFailed ? ' (condition failed)' : ''}`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, count]) => `${name} ×${count}`).join(', ') || '—';
}

/** Section 5: the capacity every call consumes, by what it is for, and its on-demand price. */
export async function measureCostPerCall(store: BenchStore, listings: readonly ListingMeasurement[], seededPets: number): Promise<string> {
  const dependencies = createDependencies({ ...LOCAL_TABLES, dynamodbEndpoint: store.endpoint, banPolicy: DEFAULT_BAN_POLICY });
  const calls = recordStoreCalls(documentClientsOf(dependencies));
  const handlers = createHttpHandlers(dependencies);
  const authorizer = createAuthorizerHandler(dependencies);
  const context = lambdaContext();
  const callsOf = async (invoke: () => Promise<unknown>) => {
    calls.length = 0;
    const result = await invoke();
    return { result, calls: [...calls] };
  };
  const byTable = (made: readonly StoreCall[], tableName: string) => made.filter((call) => call.table === tableName);
  const operationCalls = (made: readonly StoreCall[]) => made.filter((call) => call.table !== LOCAL_TABLES.usageCountersTable);

  try {
    // A key's first request from an address in a day also records the key as known there; every later one looks the key up alone.
    const { calls: firstAuthorization } = await callsOf(() => authorizer(authorizerEvent(store.apiKey), context));
    const { calls: authorization } = await callsOf(() => authorizer(authorizerEvent(store.apiKey), context));
    const scenarios: { name: string; calls: StoreCall[] }[] = [];
    for (const route of apiRoutes) {
      const { result, calls: made } = await callsOf(() =>
        invokeWhole(handlers[route.operationId], routeEvent(route, store.keyRecord), context),
      );
      const status = (result as { statusCode: number }).statusCode;
      scenarios.push({
        name: `\`${route.operationId}\`${route.operationId === 'listInventory' ? `, ${seededPets} pets` : ''} (${status})`,
        calls: made,
      });
    }
    const update = routeOf('updateInventory');
    const unknownPet = await callsOf(() =>
      invokeWhole(handlers[update.operationId], routeEvent(update, store.keyRecord, UNKNOWN_PET_ID), context),
    );
    scenarios.push({
      name: `\`updateInventory\`, unknown pet (${(unknownPet.result as { statusCode: number }).statusCode})`,
      calls: unknownPet.calls,
    });

    // A key allowed one request a minute: once it is used, the next request is a 429 (a new minute may admit one more).
    const { record: limitedKey } = await new KeyAdmin(dependencies.apiKeys, dependencies.usageCounters).issue({
      plan: 'enterprise',
      owner: 'bench, one request a minute',
      customLimits: { perMinute: 1, perDay: 1_000 },
    });
    const list = routeOf('listInventory');
    const listOnce = () => callsOf(() => invokeWhole(handlers[list.operationId], routeEvent(list, limitedKey), context));
    let rejected = await listOnce();
    while ((rejected.result as { statusCode: number }).statusCode !== 429) rejected = await listOnce();
    // The same key, banned: its requests are refused by the counting write alone.
    await dependencies.usageCounters.ban(limitedKey.keyId, Math.floor(Date.now() / 1000) + DEFAULT_BAN_POLICY.durationSeconds);
    const banned = await listOnce();
    const bannedStatus = (banned.result as { statusCode: number }).statusCode;
    if (bannedStatus !== 429) throw new Error(`a banned key was answered ${bannedStatus}`);

    const admittedCounting = byTable(scenarios[0]!.calls, LOCAL_TABLES.usageCountersTable);
    const rejectedCounting = byTable(rejected.calls, LOCAL_TABLES.usageCountersTable);
    const bannedCounting = byTable(banned.calls, LOCAL_TABLES.usageCountersTable);
    const admittedUsd = usdPerMillion(admittedCounting);
    const componentRow = (name: string, made: readonly StoreCall[]) => [
      name,
      describeCalls(made),
      fixed(readUnits(made), 1),
      fixed(writeUnits(made), 1),
      dollars(usdPerMillion(made)),
    ];
    const components = [
      componentRow('Authorization (authorizer, key lookup, strongly consistent), every request', authorization),
      componentRow(
        "Authorization, a key's first request from an address in a UTC day (the address's failures read, the key recorded as known)",
        firstAuthorization,
      ),
      componentRow('Rate-limit counting, admitted request (one conditional write: the ban and both windows)', admittedCounting),
      componentRow('Rate-limit counting, request rejected with 429 (the refused write, the rejection count)', rejectedCounting),
      componentRow('Rate-limit counting, request from a banned key (the refused write)', bannedCounting),
      ...scenarios.map((scenario) => componentRow(`Operation: ${scenario.name}`, operationCalls(scenario.calls))),
    ];

    const totalRow = (name: string, made: readonly StoreCall[]) => [
      name,
      fixed(readUnits(made), 1),
      fixed(writeUnits(made), 1),
      dollars(usdPerMillion(made, 1, authorization)),
    ];
    const totals = [
      ...scenarios.map((scenario) => totalRow(scenario.name, scenario.calls)),
      totalRow('`listInventory` (429, over the minute limit)', rejected.calls),
      totalRow('`listInventory` (429, banned key)', banned.calls),
      ...listings.map((listing) => {
        const atScale: StoreCall[] = [
          ...admittedCounting,
          {
            operation: 'Query',
            table: LOCAL_TABLES.inventoryTable,
            kind: 'read',
            capacityUnits: listing.readUnits,
            conditionFailed: false,
          },
        ];
        return totalRow(`\`listInventory\`, ${integer(listing.pets)} pets (${listing.status}, section 4)`, atScale);
      }),
    ];

    return [
      '## 5. Cost per call',
      '',
      `The service's handlers and authorizer in this process, against the bench's DynamoDB Local, with a client middleware that adds \`ReturnConsumedCapacity: 'TOTAL'\` to every command (the service's code is unchanged) and records what each call consumed, as DynamoDB Local computes it: read units per 4 KB (1 for a strongly consistent read, 0.5 for an eventually consistent one; a lookup that finds nothing still costs the minimum), write units per 1 KB. A write whose condition fails is billed like a write but reports no capacity; it is counted as 1 write unit. Prices: DynamoDB on-demand in ${PRICES.region}, $${PRICES.usdPerMillionWriteUnits} per million write request units and $${PRICES.usdPerMillionReadUnits} per million read request units, the list prices since AWS halved on-demand throughput prices on 1 November 2024; Lambda, API Gateway and data transfer are not included. ${PRICE_SOURCES}`,
      '',
      '**Per component of a request:**',
      '',
      table(['Work', 'DynamoDB calls', 'Read units', 'Write units', '$ per million'], components),
      '',
      `**Per API call**, counting and operation (read and write units exclude authorization), and its price with the authorizer's key lookup, which runs on every call: API Gateway caches no authorizer result (a cache of ${AUTHORIZER_CACHE_TTL_SECONDS} s; a cached denial would repeat one request's X-RateLimit-* to the next, see the README):`,
      '',
      table(['API call', 'Read units', 'Write units', '$ per million calls, authorizer included'], totals),
      '',
      `Counting an admitted request costs ${fixed(readUnits(admittedCounting), 1)} read and ${fixed(writeUnits(admittedCounting), 1)} write units, ${dollars(admittedUsd)} per million requests (target ≤ $${TARGET_COUNTING_USD_PER_MILLION}: ${verdict(admittedUsd <= TARGET_COUNTING_USD_PER_MILLION, dollars(admittedUsd - TARGET_COUNTING_USD_PER_MILLION))}), the first request of a minute included: each minute counts in an attribute of its own that the same write creates. It is still most of the bill of a call, against ${dollars(usdPerMillion(operationCalls(scenarios[0]!.calls)))} for listing ${seededPets} pets: a listing Queries each of the ${inventoryTable.shards} shards, strongly consistent, and each Query costs at least one read unit however few pets it finds. A request refused for a full window costs the refused write and the rejection count, which feeds the ban; one from a banned key costs the refused write alone, which says why it was refused.`,
    ].join('\n');
  } finally {
    dependencies.close();
  }
}
