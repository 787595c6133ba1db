import { DEFAULT_BAN_POLICY } from '../functions/domain/plan-limiter.ts';
import { createAuthorizerHandler } from '../functions/handlers/authorizer-handler.ts';
import { createOperationHandlers } from '../local/operation-handlers.ts';
import { KeyAdmin } from '../local/key-admin.ts';
import { inventoryTable } from '../functions/adapters/dynamodb/tables.ts';
import { LOCAL_TABLES } from '../local/local-store.ts';
import { apiRoutes } from '../functions/routes.ts';
import { KNOWN_API_KEY_SECONDS } from '../functions/domain/known-api-keys.ts';
import { describeCalls, readUnits, sequentialRoundTrips, writeUnits, type BilledCall, type StoreCall } from './consumed-capacity.ts';
import { FUNCTION_MEMORY_MB } from '../lib/service-function.ts';
import {
  authorizerEvent,
  heldReservation,
  invokeWhole,
  lambdaContext,
  routeEvent,
  routeOf,
  sizedStoreCalls,
  type BenchStore,
} from './fixtures.ts';
import { dollars, fixed, table, verdict } from './markdown.ts';
import { AWS_PRICE_SOURCES, PRICE_SOURCES, PRICES } from './prices.ts';

/**
 * Lambda bills an invocation's duration, which no bench here can measure on AWS: assumed to be
 * this much per store round trip it waits for (DynamoDB answers within single-digit milliseconds
 * in the region) plus this much of its own work (section 2 measures under a millisecond warm).
 */
const ASSUMED_ROUND_TRIP_MS = 5;
const ASSUMED_OWN_WORK_MS = 2;
const UNKNOWN_PET_ID = '999999999';
/** The target for counting an admitted request, in $ per million requests: one write unit. */
const TARGET_COUNTING_USD_PER_MILLION = 0.65;

const usdPerMillion = (calls: readonly BilledCall[]) =>
  readUnits(calls) * PRICES.usdPerMillionReadUnits + writeUnits(calls) * PRICES.usdPerMillionWriteUnits;

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

/** A request as two invocations: the authorizer making `authorization`, then the function, waiting for `functionTrips`. */
function twoInvocations(made: readonly StoreCall[], authorization: readonly StoreCall[], functionTrips: number): RequestCost {
  const authorizerTrips = sequentialRoundTrips(authorization);
  return {
    invocations: 2,
    roundTrips: authorizerTrips + functionTrips,
    readUnits: readUnits(made) + readUnits(authorization),
    writeUnits: writeUnits(made) + writeUnits(authorization),
    usdPerMillion:
      PRICES.usdPerMillionRestApiCalls +
      invocationUsdPerMillion(authorizerTrips) +
      invocationUsdPerMillion(functionTrips) +
      usdPerMillion([...made, ...authorization]),
  };
}

/**
 * A request before issue 37: the authorizer reading the key on every request, then the function's
 * count, then its own calls. After: the authorizer on every request still (SPEC 8's headers on a
 * request without a key need it), answering a key it knows from memory (`knownKey`, as this run
 * measured it), and a read sent with its count (`made` as this run sent it).
 */
function requestCosts(
  made: readonly StoreCall[],
  { keyLookup, knownKey }: { keyLookup: readonly StoreCall[]; knownKey: readonly StoreCall[] },
  countersTable: string,
): { before: RequestCost; after: RequestCost } {
  const counting = made.filter((call) => call.table === countersTable);
  const own = made.filter((call) => call.table !== countersTable);
  return {
    before: twoInvocations(made, keyLookup, sequentialRoundTrips(counting) + sequentialRoundTrips(own)),
    after: twoInvocations(made, knownKey, sequentialRoundTrips(made)),
  };
}

/** Section 4: the capacity every call consumes, by what it is for, and its on-demand price. */
export async function measureCostPerCall(store: BenchStore, seededPets: number): Promise<string> {
  const sized = sizedStoreCalls(store.endpoint);
  const { dependencies, calls } = sized;
  const handlers = await createOperationHandlers(dependencies);
  const authorizer = createAuthorizerHandler(dependencies);
  const context = lambdaContext();
  const callsOf = async <Result>(invoke: () => Promise<Result>) => {
    calls.length = 0;
    const result = await invoke();
    return { result, calls: [...calls] };
  };
  const byTable = (made: readonly StoreCall[], tableName: string) => made.filter((call) => call.table === tableName);
  const operationCalls = (made: readonly StoreCall[]) => made.filter((call) => call.table !== LOCAL_TABLES.usageCountersTable);

  try {
    // A key's first request from an address in a day also records the key as known there; the next ones find the key in
    // the authorizer's memory. Another instance (a cold one, or once a minute per key) reads the key alone.
    const { calls: firstAuthorization } = await callsOf(() => authorizer(authorizerEvent(store.apiKey), context));
    const { calls: knownKey } = await callsOf(() => authorizer(authorizerEvent(store.apiKey), context));
    const { calls: keyLookup } = await callsOf(() => createAuthorizerHandler(dependencies)(authorizerEvent(store.apiKey), context));
    const authorization = { keyLookup, knownKey };
    const scenarios: { name: string; calls: StoreCall[] }[] = [];
    // A reservation's routes take the one reserveInventory made (routes.ts lists it first); its release, one of its own, as a committed one is not released.
    let reserved = '';
    for (const route of apiRoutes) {
      const parameter =
        route.operationId === 'releaseReservation'
          ? await heldReservation(dependencies, store.keyRecord.keyId, 1n)
          : route.resource.includes('{reservationId}')
            ? reserved
            : '1';
      const { result, calls: made } = await callsOf(() =>
        invokeWhole(handlers[route.operationId], routeEvent(route, store.keyRecord, parameter), context),
      );
      const status = result.statusCode;
      if (route.operationId === 'reserveInventory') reserved = (JSON.parse(result.body) as { reservationId: string }).reservationId;
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
        `Authorization, a key the authorizer read in the last ${KNOWN_API_KEY_SECONDS} s, from an address it has used today (the common request since issue 37)`,
        knownKey,
      ),
      componentRow(
        `Authorization, a key the authorizer instance does not know (cold, or at most once in ${KNOWN_API_KEY_SECONDS} s per key; every request before issue 37): the key's strongly consistent lookup`,
        keyLookup,
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

    return [
      '## 4. Cost per call',
      '',
      `The service's handlers and authorizer in this process, against the bench's DynamoDB Local, with a client middleware (the service's code is unchanged) that records every call and bills it as AWS would, **computed from the sizes of the items it reads and writes**, read whole before and after it through a client of their own (bench/consumed-capacity.ts; the reservations' units are computed the same way): a read 1 unit per 4 KB (0.5 eventually consistent; a lookup that finds nothing still costs the minimum), a write 1 unit per KB of the larger of the item before and after, every item a transaction writes twice (DynamoDB Local's own \`ReturnConsumedCapacity\` does not bill transactions that way); a write whose condition fails is billed as though it had written. A Query's units are DynamoDB Local's report, whose rule for a page (its items' sizes summed, per 4 KB) is AWS's. A transaction is one call in the *DynamoDB calls* column. A reservation is of one pet, one item; a low-stock threshold's routes set, read and remove pet 1's. Prices: DynamoDB on-demand in ${PRICES.region}, $${PRICES.usdPerMillionWriteUnits} per million write request units and $${PRICES.usdPerMillionReadUnits} per million read request units, the list prices since AWS halved on-demand throughput prices on 1 November 2024; Lambda, API Gateway and data transfer are not included. ${PRICE_SOURCES}`,
      '',
      '**Per component of a request:**',
      '',
      table(['Work', 'DynamoDB calls', 'Read units', 'Write units', '$ per million'], components),
      '',
      `**What a request costs on AWS, before and after issue 37** (the authorizer's key memory, a read with its count). Both: API Gateway runs the authorizer on every request, uncached, so that a request without a key is answered with the X-RateLimit-* SPEC 8 requires (a cached authorizer's identity sources would make API Gateway answer it itself, from a static template without X-RateLimit-Reset): two Lambda invocations per request, the floor on API Gateway REST with a Lambda authorizer under SPEC 8. *Before*: the authorizer read the key on every request (its strongly consistent GetItem, one more round trip before the function started), and the function counted the request before its read. *After*: a warm authorizer answers a key it read in the last ${KNOWN_API_KEY_SECONDS} s from memory, with no store call (a lookup, when the instance does not know the key, costs ${dollars(usdPerMillion(keyLookup))} of DynamoDB and one round trip per million such requests), so a known key's request waits for one round trip before the work, the counting write, and a GET's read goes out with its count. Round trips are the store calls one after the other that the request waits for, measured on the calls this run made (calls in flight together count once; *before* adds the authorizer's and puts the count ahead of the operation's). Units as above. Dollars per million requests at list prices in ${PRICES.region}: API Gateway REST ${dollars(PRICES.usdPerMillionRestApiCalls)} per million calls, Lambda arm64 at the deployed ${FUNCTION_MEMORY_MB} MB, ${dollars(PRICES.usdPerMillionLambdaRequests)} per million invocations and $${PRICES.usdPerLambdaArmGbSecond} per GB-second, each invocation's duration **assumed** (${ASSUMED_ROUND_TRIP_MS} ms per round trip it waits for and ${ASSUMED_OWN_WORK_MS} ms of its own work: Lambda's billed duration cannot be measured here), DynamoDB on-demand as above; data transfer and CloudWatch not included. ${AWS_PRICE_SOURCES}`,
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
    sized.close();
  }
}
