import { createDependencies } from '../local/service-dependencies.ts';
import { DEFAULT_BAN_POLICY } from '../functions/domain/usage-limits.ts';
import { createAuthorizerHandler } from '../functions/handlers/authorizer-handler.ts';
import { createHttpHandlers } from '../local/http-handlers.ts';
import { KeyAdmin } from '../local/key-admin.ts';
import { inventoryTable } from '../functions/adapters/dynamodb/tables.ts';
import { LOCAL_TABLES } from '../local/local-store.ts';
import { apiRoutes } from '../functions/routes.ts';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../lib/deployments.ts';
import { readUnits, recordStoreCalls, sequentialRoundTrips, writeUnits, type BilledCall, type StoreCall } from './consumed-capacity.ts';
import { FUNCTION_MEMORY_MB } from '../lib/service-function.ts';
import { authorizerEvent, documentClientsOf, invokeWhole, lambdaContext, routeEvent, routeOf, type BenchStore } from './fixtures.ts';
import type { ListingMeasurement } from './listing-at-scale.ts';
import { dollars, fixed, integer, table, verdict } from './markdown.ts';
import { AWS_PRICE_SOURCES, PRICE_SOURCES, PRICES } from './prices.ts';

/**
 * Lambda bills an invocation's duration, which no bench here can measure on AWS: assumed to be
 * this much per store round trip it waits for (DynamoDB answers within single-digit milliseconds
 * in the region) plus this much of its own work (section 2 measures under a millisecond warm).
 */
const ASSUMED_ROUND_TRIP_MS = 5;
const ASSUMED_OWN_WORK_MS = 2;
/** The authorizer's store round trips on a key it has seen from the address today: the key's GetItem. */
const AUTHORIZER_ROUND_TRIPS = 1;
/** The steady client the cached column assumes: one request per second on one key. */
const UNKNOWN_PET_ID = '999999999';
/** The target for counting an admitted request, in $ per million requests: one write unit. */
const TARGET_COUNTING_USD_PER_MILLION = 0.65;

const usdPerMillion = (calls: readonly BilledCall[], authorizationShare = 0, authorization: readonly BilledCall[] = []) =>
  (readUnits(calls) + authorizationShare * readUnits(authorization)) * PRICES.usdPerMillionReadUnits +
  (writeUnits(calls) + authorizationShare * writeUnits(authorization)) * PRICES.usdPerMillionWriteUnits;

/** What one request costs on AWS: invocations, the store's round trips one after the other, units, dollars. */
interface RequestCost {
  invocations: number;
  roundTrips: number;
  readUnits: number;
  writeUnits: number;
  usdPerMillion: number;
}

/** An invocation waiting for `roundTrips` store round trips, in $ per million at the deployed memory (assumed duration). */
const invocationUsdPerMillion = (roundTrips: number) =>
  PRICES.usdPerMillionLambdaRequests +
  (FUNCTION_MEMORY_MB / 1024) * ((roundTrips * ASSUMED_ROUND_TRIP_MS + ASSUMED_OWN_WORK_MS) / 1000) * PRICES.usdPerLambdaArmGbSecond * 1e6;

/**
 * A request before issue 37: the authorizer on every request (its key read first), then the
 * function's count, then its own calls; and after: the authorizer's answer kept (no invocation,
 * no read), and a read sent with the count (`made` as this run sent it).
 */
function requestCosts(
  made: readonly StoreCall[],
  authorization: readonly StoreCall[],
  countersTable: string,
): { before: RequestCost; after: RequestCost } {
  const counting = made.filter((call) => call.table === countersTable);
  const own = made.filter((call) => call.table !== countersTable);
  const functionTripsBefore = sequentialRoundTrips(counting) + sequentialRoundTrips(own);
  const functionTripsAfter = sequentialRoundTrips(made);
  const units = { readUnits: readUnits(made), writeUnits: writeUnits(made) };
  const gateway = PRICES.usdPerMillionRestApiCalls;
  const before = {
    invocations: 2,
    roundTrips: AUTHORIZER_ROUND_TRIPS + functionTripsBefore,
    readUnits: units.readUnits + readUnits(authorization),
    writeUnits: units.writeUnits + writeUnits(authorization),
  };
  const after = { invocations: 1, roundTrips: functionTripsAfter, ...units };
  return {
    before: {
      ...before,
      usdPerMillion:
        gateway +
        invocationUsdPerMillion(AUTHORIZER_ROUND_TRIPS) +
        invocationUsdPerMillion(functionTripsBefore) +
        usdPerMillion([...made, ...authorization]),
    },
    after: { ...after, usdPerMillion: gateway + invocationUsdPerMillion(functionTripsAfter) + usdPerMillion(made) },
  };
}

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
      componentRow(
        `Authorization (authorizer, key lookup, strongly consistent), when API Gateway keeps no answer for the key and address (at most once in ${AUTHORIZER_CACHE_TTL_SECONDS} s; every request before issue 37)`,
        authorization,
      ),
      componentRow(
        "Authorization, a key's first request from an address in a UTC day (the address's failures read, the key recorded as known)",
        firstAuthorization,
      ),
      componentRow('Rate-limit counting, admitted request (one conditional write: the ban and both windows)', admittedCounting),
      componentRow('Rate-limit counting, request rejected with 429 (the refused write, the rejection count)', rejectedCounting),
      componentRow('Rate-limit counting, request from a banned key (the refused write)', bannedCounting),
      ...scenarios.map((scenario) => componentRow(`Operation: ${scenario.name}`, operationCalls(scenario.calls))),
    ];

    const totalRow = (name: string, made: readonly BilledCall[]) => [
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
        const atScale: BilledCall[] = [...admittedCounting, { kind: 'read', capacityUnits: listing.readUnits }];
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
      `**Per API call**, counting and operation (read and write units exclude authorization), and its DynamoDB price with the authorizer's key lookup, which a request pays only when API Gateway keeps no answer for its key and address (at most once in ${AUTHORIZER_CACHE_TTL_SECONDS} s since issue 37, on every request before; the table below counts it on neither side of a kept answer):`,
      '',
      table(['API call', 'Read units', 'Write units', '$ per million calls, authorizer included'], totals),
      '',
      `**What a request costs on AWS, before and after issue 37** (one Lambda invocation per request, a read with its count). *Before*: API Gateway ran the authorizer on every request (a second Lambda invocation, its key's strongly consistent GetItem, one more round trip before the function started), and the function counted the request before its read. *After*: the authorizer's answer is kept a minute per key and address, so a key in use costs no invocation and no read for it (a miss, at most once in ${AUTHORIZER_CACHE_TTL_SECONDS} s per key and address, costs ${dollars(invocationUsdPerMillion(AUTHORIZER_ROUND_TRIPS) + usdPerMillion(authorization))} per million misses), and a GET's read goes out with its count. Round trips are the store calls one after the other that the request waits for, measured on the calls this run made (calls in flight together count once; *before* adds the authorizer's and puts the count ahead of the operation's). Units as above. Dollars per million requests at list prices in ${PRICES.region}: API Gateway REST ${dollars(PRICES.usdPerMillionRestApiCalls)} per million calls, Lambda arm64 at the deployed ${FUNCTION_MEMORY_MB} MB, ${dollars(PRICES.usdPerMillionLambdaRequests)} per million invocations and $${PRICES.usdPerLambdaArmGbSecond} per GB-second, each invocation's duration **assumed** (${ASSUMED_ROUND_TRIP_MS} ms per round trip it waits for and ${ASSUMED_OWN_WORK_MS} ms of its own work: Lambda's billed duration cannot be measured here), DynamoDB on-demand as above; data transfer and CloudWatch not included. ${AWS_PRICE_SOURCES}`,
      '',
      table(
        ['API call', 'Lambda invocations', 'Sequential round trips', 'Read units', 'Write units', '$ per million requests'],
        [...scenarios, { name: '`listInventory` (429, over the minute limit)', calls: rejected.calls }].map((scenario) => {
          const { before, after } = requestCosts(scenario.calls, authorization, LOCAL_TABLES.usageCountersTable);
          const change = (from: number, to: number, format: (value: number) => string = String) =>
            from === to ? format(to) : `${format(from)} → ${format(to)}`;
          return [
            scenario.name,
            change(before.invocations, after.invocations),
            change(before.roundTrips, after.roundTrips),
            change(before.readUnits, after.readUnits, (value) => fixed(value, 1)),
            change(before.writeUnits, after.writeUnits, (value) => fixed(value, 1)),
            change(before.usdPerMillion, after.usdPerMillion, dollars),
          ];
        }),
      ),
      '',
      `Counting an admitted request costs ${fixed(readUnits(admittedCounting), 1)} read and ${fixed(writeUnits(admittedCounting), 1)} write units, ${dollars(admittedUsd)} per million requests (target ≤ $${TARGET_COUNTING_USD_PER_MILLION}: ${verdict(admittedUsd <= TARGET_COUNTING_USD_PER_MILLION, dollars(admittedUsd - TARGET_COUNTING_USD_PER_MILLION))}), the first request of a minute included: each minute counts in an attribute of its own that the same write creates. It is still most of the bill of a call, against ${dollars(usdPerMillion(operationCalls(scenarios[0]!.calls)))} for listing ${seededPets} pets: a listing Queries each of the ${inventoryTable.shards} shards, strongly consistent, and each Query costs at least one read unit however few pets it finds. A request refused for a full window costs the refused write and the rejection count, which feeds the ban; one from a banned key costs the refused write alone, which says why it was refused.`,
    ].join('\n');
  } finally {
    dependencies.close();
  }
}
