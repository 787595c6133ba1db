import type { APIGatewayProxyEvent } from 'aws-lambda';
import { createDependencies } from '../functions/dependencies.ts';
import { generateApiKey, hashApiKey, type ApiKeyRecord } from '../functions/domain/api-keys.ts';
import { DEFAULT_BAN_POLICY } from '../functions/domain/usage-limits.ts';
import { createAuthorizerHandler } from '../functions/handlers/authorizer-handler.ts';
import { createHttpHandlers } from '../functions/handlers/http-handlers.ts';
import { callerFrom } from '../functions/http/caller.ts';
import { LOCAL_TABLES } from '../functions/local/local-store.ts';
import { apiRoutes } from '../functions/routes.ts';
import { bareAuthorize, bareGetPet, bareListInventory, bareUpdateInventory } from './bare-handlers.ts';
import { authorizerEvent, benchInventory, documentClientsOf, lambdaContext, routeEvent, UNTHROTTLED_LIMITS } from './fixtures.ts';
import { table, us, verdict } from './markdown.ts';
import { median, percentile } from './stats.ts';
import { answerFromMemory, wireInventoryItem, wireKeyRecord } from './stub-dynamodb.ts';

const PETS = 100;
const WARM_UP_INVOCATIONS = 1_000;
/** Rounds alternate the variants, so that drift (JIT, GC, the machine) touches them alike. */
const ROUNDS = 5;
const INVOCATIONS_PER_ROUND = 1_000;
const TARGET_ADDED_US = 100;
/** UsageLimiter.admit: the ban lookup and the minute and day counters. */
const COUNTING_CALLS = 2;

interface Variant {
  name: 'bare' | 'bareCounting' | 'ours';
  invoke: (event: never) => Promise<unknown>;
}

interface Measured {
  p50: number;
  p99: number;
}

/** `freshEvent` runs outside the timed part: Middy replaces event.body and event.headers, so no event serves twice. */
async function measure(variants: Variant[], freshEvent: () => unknown): Promise<Map<Variant['name'], Measured>> {
  const samples = new Map(variants.map((variant) => [variant.name, [] as number[]]));
  for (const variant of variants) {
    for (let index = 0; index < WARM_UP_INVOCATIONS; index += 1) await variant.invoke(freshEvent() as never);
  }
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const variant of variants) {
      const times = samples.get(variant.name)!;
      for (let index = 0; index < INVOCATIONS_PER_ROUND; index += 1) {
        const event = freshEvent() as never;
        const startedAt = process.hrtime.bigint();
        await variant.invoke(event);
        times.push(Number(process.hrtime.bigint() - startedAt) / 1_000);
      }
    }
  }
  return new Map([...samples].map(([name, times]) => [name, { p50: percentile(times, 50), p99: percentile(times, 99) }]));
}

/** Section 2: our handlers in this process, DynamoDB answering instantly, next to bare handlers. */
export async function measureWarmOverhead(): Promise<string> {
  const pets = benchInventory(PETS);
  const apiKey = generateApiKey().key;
  const record: ApiKeyRecord = {
    keyHash: hashApiKey(apiKey),
    keyId: 'key_bench',
    owner: 'bench',
    plan: 'enterprise',
    status: 'active',
    createdAt: new Date().toISOString(),
    customLimits: { ...UNTHROTTLED_LIMITS },
  };
  const tables = LOCAL_TABLES;
  const dependencies = createDependencies({ ...tables, dynamodbEndpoint: 'http://dynamodb.stub.invalid', banPolicy: DEFAULT_BAN_POLICY });
  const pet = pets[0]!;
  answerFromMemory(documentClientsOf(dependencies), {
    GetItem: { [tables.apiKeysTable]: { Item: wireKeyRecord(record) }, [tables.usageCountersTable]: {}, [tables.inventoryTable]: { Item: wireInventoryItem(pet) } },
    UpdateItem: { [tables.usageCountersTable]: { Attributes: { requests: { N: '1' }, minuteRequests: { N: '1' } } }, [tables.inventoryTable]: { Attributes: wireInventoryItem(pet) } },
    Scan: { [tables.inventoryTable]: { Items: pets.map(wireInventoryItem), Count: pets.length, ScannedCount: pets.length } },
  });
  const { client, limiter } = dependencies;
  const handlers = createHttpHandlers(dependencies);
  const authorizer = createAuthorizerHandler(dependencies);
  const context = lambdaContext();

  // Counting fails open, so a 200 alone would not prove the stub answers it: ask the limiter directly.
  await limiter.admit(record.keyId, UNTHROTTLED_LIMITS);

  const bareOf: Record<string, (event: APIGatewayProxyEvent) => Promise<unknown>> = {
    listInventory: () => bareListInventory(client, tables.inventoryTable),
    updateInventory: (event) => bareUpdateInventory(client, tables.inventoryTable, event.pathParameters!.petId!, event.body!),
    getPetById: (event) => bareGetPet(client, tables.inventoryTable, event.pathParameters!.petId!),
  };
  const rows: { name: string; results: Map<Variant['name'], Measured> }[] = [];
  for (const route of apiRoutes) {
    const event = routeEvent(route, record);
    const ours = handlers[route.operationId];
    const bare = bareOf[route.operationId];
    const variants: Variant[] = [{ name: 'ours', invoke: (fresh: APIGatewayProxyEvent) => ours(fresh, context) }];
    if (bare) {
      variants.unshift(
        { name: 'bare', invoke: bare },
        {
          name: 'bareCounting',
          invoke: async (fresh: APIGatewayProxyEvent) => {
            const caller = callerFrom(fresh);
            await limiter.admit(caller.keyId, caller.limits);
            return bare(fresh);
          },
        },
      );
    }
    const sample = (await ours(structuredClone(event), context)).statusCode;
    if (sample !== 200) throw new Error(`${route.operationId} answered ${sample} with the stubbed store`);
    rows.push({ name: route.operationId, results: await measure(variants, () => structuredClone(event)) });
  }
  const authEvent = authorizerEvent(apiKey);
  rows.push({
    name: 'authorizer',
    results: await measure(
      [
        { name: 'bare', invoke: (fresh: typeof authEvent) => bareAuthorize(client, tables.apiKeysTable, fresh.headers!.Authorization!, fresh.methodArn) },
        { name: 'ours', invoke: (fresh: typeof authEvent) => authorizer(fresh, context) },
      ],
      () => structuredClone(authEvent),
    ),
  });

  const withCounting = rows.filter(({ results }) => results.has('bareCounting'));
  const stackOnly = [Math.min, Math.max].map((pick) => pick(...withCounting.map(({ results }) => results.get('ours')!.p50 - results.get('bareCounting')!.p50)));
  const perCountingCall = median(withCounting.map(({ results }) => (results.get('bareCounting')!.p50 - results.get('bare')!.p50) / COUNTING_CALLS));
  const cell = (measured: Measured | undefined) => (measured ? `${us(measured.p50)} / ${us(measured.p99)}` : '—');
  const misses: string[] = [];
  const tableRows = rows.map(({ name, results }) => {
    const bare = results.get('bare');
    const counting = results.get('bareCounting');
    const ours = results.get('ours')!;
    const added = bare ? { p50: ours.p50 - bare.p50, p99: ours.p99 - bare.p99 } : undefined;
    if (added && added.p50 > TARGET_ADDED_US) misses.push(`\`${name}\` (${us(added.p50 - TARGET_ADDED_US)} over)`);
    return [
      `\`${name}\``,
      cell(bare),
      cell(counting),
      cell(ours),
      added ? `${us(added.p50)} / ${us(added.p99)}` : '—',
      counting && bare ? us(counting.p50 - bare.p50) : '—',
      counting ? us(ours.p50 - counting.p50) : '—',
      added ? verdict(added.p50 <= TARGET_ADDED_US, us(added.p50 - TARGET_ADDED_US)) : '',
    ];
  });

  return [
    '## 2. Warm overhead',
    '',
    `Our handlers (built by the service's own factories and dependencies) invoked in this process, one after another, with the DynamoDB client's HTTP handler replaced by one that answers from memory: marshalling, the SDK's middleware, request signing and response parsing still run, the network and DynamoDB do not. Listing returns ${PETS} pets. *Bare* is a plain handler making the operation's call through the same client and answering the same body (bench/bare-handlers.ts); *bare + counting* adds the plan-limit calls (UsageLimiter.admit: the ban lookup and one write to the usage counter) without any middleware. ${WARM_UP_INVOCATIONS.toLocaleString('en-US')} warm-up invocations per variant, then ${ROUNDS} alternating rounds of ${INVOCATIONS_PER_ROUND.toLocaleString('en-US')}; each invocation timed on its own. Figures are median / p99 per invocation; "added" is ours minus bare, for the median and for the p99 (a difference of percentiles).`,
    '',
    table(
      ['Handler', 'Bare', 'Bare + counting', 'Ours', 'Added by us', 'of which: counting calls (median)', 'of which: Middy stack, validation, serialization (median)', `Target ≤ ${TARGET_ADDED_US} µs added (median)`],
      tableRows,
    ),
    '',
    misses.length === 0
      ? 'Every handler is within the target.'
      : `**Target missed** by ${misses.join(', ')}. The split columns tell where the time goes. Without its counting calls our stack adds ${stackOnly.map(us).join(' to ')} (Middy, header normalization, body parsing and zod validation, the X-RateLimit and stability headers, and for listing a second \`JSON.stringify\` of the whole result to check its size against Lambda's limit): within the target. The miss is the plan-limit counting: two more DynamoDB calls per request, each costing the SDK's whole in-process work (command construction, marshalling, signing, response parsing) even when DynamoDB answers instantly, about ${us(perCountingCall)} per call on this machine.`,
  ].join('\n');
}
