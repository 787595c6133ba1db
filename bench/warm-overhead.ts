import type { APIGatewayProxyEvent } from 'aws-lambda';
import { generateApiKey, hashApiKey, type ApiKeyRecord } from '../functions/domain/api-keys.ts';
import { createAuthorizerHandler } from '../functions/handlers/authorizer-handler.ts';
import { createOperationHandlers } from '../local/operation-handlers.ts';
import { callerFrom } from '../functions/http/caller.ts';
import { LOCAL_TABLES } from '../local/local-store.ts';
import { routeOf, type OperationId } from '../functions/routes.ts';
import { bareAuthorize, bareCountingCall, bareGetPet, bareListInventory, bareUpdateInventory } from './bare-handlers.ts';
import {
  authorizerEvent,
  benchInventory,
  documentClientsOf,
  invokeWhole,
  lambdaContext,
  routeEvent,
  serviceDependencies,
  UNTHROTTLED_LIMITS,
} from './fixtures.ts';
import { table, us, verdict } from './markdown.ts';
import { median, percentile } from './stats.ts';
import { answerFromMemory, shardPages, wireInventoryItem, wireKeyRecord } from './stub-dynamodb.ts';

const PETS = 100;
const WARM_UP_INVOCATIONS = 1_000;
/** Rounds alternate the variants, so that drift (JIT, GC, the machine) touches them alike. */
const ROUNDS = 5;
const INVOCATIONS_PER_ROUND = 1_000;
/** What our stack may add beyond the SDK's own work for the one counting call. */
const TARGET_STACK_US = 60;

interface Variant {
  name: 'bare' | 'bareOneCall' | 'bareCounting' | 'ours';
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
  const dependencies = serviceDependencies('http://dynamodb.stub.invalid');
  const pet = pets[0]!;
  // What the measured handlers ask: the authorizer, the counting, and the three operations that have a bare floor.
  const answered = answerFromMemory(documentClientsOf(dependencies), {
    GetItem: {
      [tables.apiKeysTable]: { Item: wireKeyRecord(record) },
      [tables.inventoryTable]: { Item: wireInventoryItem(pet) },
      // The authorizer reads the source address's failed authentications before looking up a key it has not seen from there.
      [tables.usageCountersTable]: {},
    },
    UpdateItem: {
      [tables.usageCountersTable]: { Attributes: { requests: { N: '1' } } },
      [tables.inventoryTable]: { Attributes: wireInventoryItem(pet) },
    },
    Query: { [tables.inventoryTable]: shardPages(pets) },
  });
  const { client, countingClient, limiter } = dependencies;
  const handlers = await createOperationHandlers(dependencies);
  const authorizer = createAuthorizerHandler(dependencies);
  const context = lambdaContext();

  // Counting fails open, so a 200 alone would not prove the stub answers it: ask the limiter
  // directly, and check that it makes exactly the one call the target allows for.
  await limiter.admit(record.keyId, UNTHROTTLED_LIMITS);
  if (answered.join() !== `UpdateItem ${tables.usageCountersTable}`)
    throw new Error(`Counting made ${answered.join(', ')}, not one UpdateItem.`);
  /** The floor's counting call: one plain UpdateItem through the counting client, the SDK's work and nothing of ours. */
  const oneCountingCall = () => bareCountingCall(countingClient, tables.usageCountersTable, record.keyId);

  /**
   * The operations with a floor: the same call written plainly (bench/bare-handlers.ts). The others
   * have no target here, only the cold start's (section 1) and their calls' cost (section 4).
   */
  const bareOf: Partial<Record<OperationId, (event: APIGatewayProxyEvent) => Promise<unknown>>> = {
    listInventory: () => bareListInventory(client, tables.inventoryTable),
    updateInventory: (event) => bareUpdateInventory(client, tables.inventoryTable, event.pathParameters!.petId!, event.body!),
    getPetById: (event) => bareGetPet(client, tables.inventoryTable, event.pathParameters!.petId!),
  };
  const rows: { name: string; results: Map<Variant['name'], Measured> }[] = [];
  for (const [operationId, bare] of Object.entries(bareOf) as [OperationId, (event: APIGatewayProxyEvent) => Promise<unknown>][]) {
    const event = routeEvent(routeOf(operationId), record);
    const ours = handlers[operationId];
    const variants: Variant[] = [
      { name: 'bare', invoke: bare },
      {
        name: 'bareOneCall',
        invoke: async (fresh: APIGatewayProxyEvent) => {
          await oneCountingCall();
          return bare(fresh);
        },
      },
      {
        name: 'bareCounting',
        invoke: async (fresh: APIGatewayProxyEvent) => {
          const caller = callerFrom(fresh);
          await limiter.admit(caller.keyId, caller.limits);
          return bare(fresh);
        },
      },
      { name: 'ours', invoke: (fresh: APIGatewayProxyEvent) => invokeWhole(ours, fresh, context) },
    ];
    const sample = (await invokeWhole(ours, structuredClone(event), context)).statusCode;
    if (sample !== 200) throw new Error(`${operationId} answered ${sample} with the stubbed store`);
    rows.push({ name: operationId, results: await measure(variants, () => structuredClone(event)) });
  }
  const authEvent = authorizerEvent(apiKey);
  rows.push({
    name: 'authorizer',
    results: await measure(
      [
        {
          name: 'bare',
          invoke: (fresh: typeof authEvent) => bareAuthorize(client, tables.apiKeysTable, fresh.headers!.Authorization!, fresh.methodArn),
        },
        { name: 'ours', invoke: (fresh: typeof authEvent) => authorizer(fresh, context) },
      ],
      () => structuredClone(authEvent),
    ),
  });

  const withCounting = rows.filter(({ results }) => results.has('bareCounting'));
  const stackOnly = [Math.min, Math.max].map((pick) =>
    pick(...withCounting.map(({ results }) => results.get('ours')!.p50 - results.get('bareCounting')!.p50)),
  );
  const oneCallCost = median(withCounting.map(({ results }) => results.get('bareOneCall')!.p50 - results.get('bare')!.p50));
  const cell = (measured: Measured | undefined) => (measured ? `${us(measured.p50)} / ${us(measured.p99)}` : '—');
  const misses: string[] = [];
  const tableRows = rows.map(({ name, results }) => {
    const bare = results.get('bare');
    const oneCall = results.get('bareOneCall');
    const counting = results.get('bareCounting');
    const ours = results.get('ours')!;
    const added = bare ? { p50: ours.p50 - bare.p50, p99: ours.p99 - bare.p99 } : undefined;
    // The authorizer counts only failures (a key known from the address costs it no call once warm): its allowance is the stack's alone.
    const allowed = TARGET_STACK_US + (oneCall && bare ? oneCall.p50 - bare.p50 : 0);
    if (added && added.p50 > allowed) misses.push(`\`${name}\` (${us(added.p50 - allowed)} over)`);
    return [
      `\`${name}\``,
      cell(bare),
      cell(oneCall),
      cell(counting),
      cell(ours),
      added ? `${us(added.p50)} / ${us(added.p99)}` : '—',
      counting && bare ? us(counting.p50 - bare.p50) : '—',
      counting ? us(ours.p50 - counting.p50) : '—',
      added ? `${us(allowed)}: ${verdict(added.p50 <= allowed, us(added.p50 - allowed))}` : '',
    ];
  });

  return [
    '## 2. Warm overhead',
    '',
    `Our handlers (built by the service's own factories and dependencies) invoked in this process, one after another (the streamed listing with a response stream, as Lambda's runtime calls it, its answer read whole), with the DynamoDB client's HTTP handler replaced by one that answers from memory: marshalling, the SDK's middleware, request signing and response parsing still run, the network and DynamoDB do not. Listing returns ${PETS} pets. Only the operations with a floor are here, the target's: the others' calls and units are section 4's, the reservations' latency their own section's. *Bare* is a plain handler making the operation's call through the same client and answering the same body (bench/bare-handlers.ts); *bare + one call* adds one plain UpdateItem through the counting client, the SDK's cost of exactly one counting call; *bare + counting* adds the service's plan-limit counting instead (PlanLimiter.admit: its one conditional write, checked to be the only call) without any middleware. ${WARM_UP_INVOCATIONS.toLocaleString('en-US')} warm-up invocations per variant, then ${ROUNDS} alternating rounds of ${INVOCATIONS_PER_ROUND.toLocaleString('en-US')}; each invocation timed on its own. Figures are median / p99 per invocation; "added" is ours minus bare, for the median and for the p99 (a difference of percentiles).`,
    '',
    table(
      [
        'Handler',
        'Bare',
        'Bare + one call',
        'Bare + counting',
        'Ours',
        'Added by us',
        'of which: counting (median)',
        'of which: Middy stack, validation, serialization (median)',
        `Target: added ≤ ${TARGET_STACK_US} µs + one call (median)`,
      ],
      tableRows,
    ),
    '',
    `One plain counting call costs the SDK ${us(oneCallCost)} here (median over the handlers): command construction, marshalling, signing and response parsing, even when DynamoDB answers instantly. Beside the counting, our stack adds ${stackOnly.map(us).join(' to ')}: Middy, header normalization, body parsing and the compiled validator, the X-RateLimit and stability headers, and for listing its response stream: the array's text as a Readable, the byte budget and Lambda's prelude, read back as a client would.`,
    '',
    misses.length === 0
      ? 'Every handler is within the target.'
      : `**Target missed** by ${misses.join(', ')}. The split columns tell where the time goes: what the counting costs beyond one plain call is the limiter's own work (its windows, the counting command's expressions and their marshalling), the rest the stack's.`,
  ].join('\n');
}
