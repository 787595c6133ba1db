import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizerHandler } from '../../../functions/handlers/authorizer-handler.ts';
import { createOperationHandlers } from '../../../local/operation-handlers.ts';
import { KeyAdmin } from '../../../local/key-admin.ts';
import { invokeWhole } from '../../../local/lambda-streaming.ts';
import { writeInventory } from '../../../local/seed.ts';
import { apiRoutes, routeOf } from '../../../functions/routes.ts';
import { lambdaContext } from '../../support/events.ts';
import { startTestStore, type TestStore } from '../../support/local-store.ts';
import { propertyRuns } from '../../support/property-runs.ts';

/**
 * The Lambda functions fed arbitrary API Gateway REST (v1) events, against DynamoDB Local: any
 * header and query names (prototype names included), odd encodings, fields API Gateway may
 * leave out. Client input never earns a 5xx, and every error is the contract's Error body.
 */
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'] as const;
const AMBIGUOUS_BODY = '{"quantity": 1, "quantity": 2}';
/** A pet no arbitrary event is aimed at (fast-check favours small ids and the extremes), reserved by the tests of bodiless operations. */
const HELD_PET = 4_611_686_018_427_387_903n;

let store: TestStore;
let handlers: Awaited<ReturnType<typeof createOperationHandlers>>;
let authorizer: ReturnType<typeof createAuthorizerHandler>;
let apiKey: string;

beforeAll(async () => {
  store = await startTestStore();
  await writeInventory(store.dependencies.client, store.tables.inventoryTable, [
    { petId: 1n, quantity: 5, status: 'available' },
    { petId: 9_223_372_036_854_775_807n, quantity: 1, status: 'sold' },
  ]);
  handlers = await createOperationHandlers(store.dependencies);
  authorizer = createAuthorizerHandler(store.dependencies);
  // Limits no run reaches, so that every run gets past counting to the operation itself.
  ({ apiKey } = await new KeyAdmin(store.dependencies.apiKeys, store.dependencies.usageCounters).issue({
    plan: 'enterprise',
    owner: 'arbitrary events',
    customLimits: { perMinute: 1_000_000, perDay: 100_000_000 },
  }));
});
afterAll(async () => store.close());

const name = fc.oneof(
  fc.constantFrom(...PROTOTYPE_NAMES, 'Authorization', 'authorization', 'Content-Type', 'content-type', 'Expect', 'X-Forwarded-For'),
  fc.string({ maxLength: 20 }),
);
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', '%', '%31', '%E0%A4%A', '\u0000'),
);
const headerValue = fc.oneof(
  text,
  fc.constantFrom(
    'application/json',
    'application/merge-patch+json; charset=utf-8',
    'application/json ; charset=utf-8',
    'application/vnd.pet_store+json',
    'text/plain',
    'Bearer ',
    'Bearer x',
  ),
);
const entries = (values: fc.Arbitrary<string>) => fc.array(fc.tuple(name, values), { maxLength: 6 });
const petId = fc.oneof(
  fc.constantFrom('1', '%31', '01', '+1', '1.0', '1e3', '-1', '0', '9223372036854775807', '9223372036854775808', '1%2F2', '%', ' 1', ''),
  fc.bigInt({ min: 0n, max: 2n ** 70n }).map(String),
  text,
);
const body = fc.oneof(
  fc.constant(null),
  text,
  fc.json({ maxDepth: 3 }),
  fc
    .record({ quantity: fc.oneof(fc.integer(), fc.double(), fc.bigInt().map(String), fc.string(), fc.constant(null)) })
    .map((value) => JSON.stringify(value)),
  fc.integer({ min: 0, max: 2 ** 31 }).map((quantity) => `{"quantity": ${quantity}}`),
  fc.constantFrom(
    AMBIGUOUS_BODY,
    '{"__proto__": {"quantity": 1}}',
    '{"constructor": {"prototype": {}}}',
    `{"quantity": ${'['.repeat(1_000)}${']'.repeat(1_000)}}`,
  ),
  fc.string({ minLength: 4_000, maxLength: 5_000 }),
);

/** Name-value pairs in the two maps API Gateway builds: the last value of each name, and every value. */
function gatewayMaps(pairs: readonly (readonly [string, string])[]) {
  const all = new Map<string, string[]>();
  for (const [key, value] of pairs) all.set(key, [...(all.get(key) ?? []), value]);
  return { single: Object.fromEntries([...all].map(([key, values]) => [key, values.at(-1)!])), multi: Object.fromEntries(all) };
}

/** Pairs into the two maps API Gateway builds, or left out, or null. */
const maps = (values: fc.Arbitrary<string>, pairs: fc.Arbitrary<[string, string][]> = entries(values)) =>
  fc.oneof(pairs.map(gatewayMaps), fc.constantFrom(null, undefined));

/** A caller whose limits no run reaches. */
const ROOMY_CALLER = { principalId: 'key_roomy', keyId: 'key_roomy', plan: 'enterprise', perMinute: 1_000_000, perDay: 100_000_000 };
const caller = fc.oneof(fc.constant(ROOMY_CALLER), fc.constantFrom(null, undefined, {}, { keyId: 7, plan: 'gold', perMinute: -1 }));

/** An event as Lambda hands it over: parsed from JSON text, so `__proto__` is an own key, as API Gateway sends it. */
function asLambdaReceivesIt<Event>(event: Record<string, unknown>): Event {
  return JSON.parse(JSON.stringify(event)) as Event;
}

const withKey = (value: string) => value.replace('<key>', apiKey);

interface ProxyEventParts {
  route: (typeof apiRoutes)[number];
  headers: ReturnType<typeof gatewayMaps> | null | undefined;
  query: ReturnType<typeof gatewayMaps> | null | undefined;
  petId: string | undefined;
  reservationId?: string;
  body: string | null;
  isBase64Encoded: boolean;
  authorizer: unknown;
}

function proxyEventOf({
  route,
  headers,
  query,
  petId: id,
  reservationId,
  body: sentBody,
  isBase64Encoded,
  authorizer: context,
}: ProxyEventParts) {
  const path = route.resource.replace('{petId}', id ?? '').replace('{reservationId}', reservationId ?? '');
  return {
    operationId: route.operationId,
    event: asLambdaReceivesIt<APIGatewayProxyEvent>({
      resource: route.resource,
      path,
      httpMethod: route.method,
      headers: headers === null || headers === undefined ? headers : headers.single,
      multiValueHeaders: headers === null || headers === undefined ? headers : headers.multi,
      queryStringParameters: query?.single ?? null,
      multiValueQueryStringParameters: query?.multi ?? null,
      pathParameters:
        id === undefined && reservationId === undefined
          ? null
          : { ...(id === undefined ? {} : { petId: id }), ...(reservationId === undefined ? {} : { reservationId }) },
      stageVariables: null,
      body: sentBody,
      isBase64Encoded,
      requestContext: {
        requestId: 'arbitrary',
        stage: 'v1',
        // The path as the client sent it, the stage first, as API Gateway always sets it (a reservation's Location is made from it).
        path: `/v1${path}`,
        resourcePath: route.resource,
        httpMethod: route.method,
        ...(context === undefined ? {} : { authorizer: context }),
      },
    }),
  };
}

const proxyEvents = fc
  .record({
    route: fc.constantFrom(...apiRoutes),
    headers: maps(headerValue),
    query: maps(text),
    petId: fc.option(petId, { nil: undefined }),
    body,
    isBase64Encoded: fc.boolean(),
    authorizer: caller,
  })
  .map(proxyEventOf);

/** The answer is not a 5xx, a 204 has no body, and an error answer is the contract's Error body with its own status. */
function expectClientAnswer(result: { statusCode: number; body: string }): void {
  expect(result.statusCode).toBeLessThan(500);
  // A 204 (a threshold removed) has no body to parse.
  if (result.statusCode === 204) {
    expect(result.body).toBe('');
    return;
  }
  const answer: unknown = JSON.parse(result.body);
  if (result.statusCode >= 400)
    expect(answer).toEqual({ code: expect.stringMatching(/^[A-Z_]+$/), message: expect.any(String), status: result.statusCode });
}

describe('arbitrary API Gateway REST events', () => {
  it('never earn a 5xx from a function, and every error is the Error body', async () => {
    await fc.assert(
      fc.asyncProperty(proxyEvents, async ({ operationId, event }) => {
        const result = await invokeWhole(handlers[operationId]!, event, lambdaContext);

        expectClientAnswer(result);
        // A body that says two things is never taken at its last word.
        if (operationId === 'updateInventory' && event.body === AMBIGUOUS_BODY && !event.isBase64Encoded)
          expect(result.statusCode).not.toBe(200);
      }),
      propertyRuns({ numRuns: 300 }),
    );
  });

  /** The event of `route` with `body` (none: null), against pet 1 or the reservation given. */
  const eventWith = (route: (typeof apiRoutes)[number], body: string | null, reservationId?: string) =>
    proxyEventOf({
      route,
      headers: gatewayMaps([
        ['Content-Type', 'application/json'],
        ['Idempotency-Key', 'constructor-prototype'],
      ]),
      query: null,
      petId: route.resource.includes('{petId}') ? '1' : undefined,
      reservationId: route.resource.includes('{reservationId}') ? reservationId : undefined,
      body,
      isBase64Encoded: false,
      authorizer: ROOMY_CALLER,
    }).event;

  /** A fresh active reservation of one of HELD_PET's 5, under a key of its own. */
  async function reserveOne(): Promise<string> {
    await writeInventory(store.dependencies.client, store.tables.inventoryTable, [{ petId: HELD_PET, quantity: 5, status: 'available' }]);
    const event = eventWith(routeOf('reserveInventory'), `{"items": [{"petId": ${HELD_PET}, "quantity": 1}]}`);
    const key = randomUUID();
    event.headers['Idempotency-Key'] = key;
    event.multiValueHeaders['Idempotency-Key'] = [key];
    const reserved = await invokeWhole(handlers.reserveInventory!, event, lambdaContext);
    expect(reserved.statusCode).toBe(201);
    return (JSON.parse(reserved.body) as { reservationId: string }).reservationId;
  }

  // A counterexample the property found (a 500: Middy's parser refused the key with its own 422).
  it.each(apiRoutes.filter((route) => 'body' in route))(
    'answer the body {"constructor": {"prototype": {}}} of $operationId 400 MALFORMED_JSON',
    async (route) => {
      const result = await invokeWhole(handlers[route.operationId]!, eventWith(route, '{"constructor": {"prototype": {}}}'), lambdaContext);

      expectClientAnswer(result);
      expect([result.statusCode, JSON.parse(result.body).code]).toEqual([400, 'MALFORMED_JSON']);
    },
  );

  // An operation that takes no body refuses one (issue 44), whatever it holds, and does nothing.
  it.each(apiRoutes.filter((route) => route.method !== 'GET' && !('body' in route)))(
    'answer the body {"constructor": {"prototype": {}}} of $operationId, which takes none, 400 INVALID_BODY, doing nothing',
    async (route) => {
      const reservationId = await reserveOne();

      const withBody = await invokeWhole(
        handlers[route.operationId]!,
        eventWith(route, '{"constructor": {"prototype": {}}}', reservationId),
        lambdaContext,
      );
      const withoutBody = await invokeWhole(handlers[route.operationId]!, eventWith(route, null, reservationId), lambdaContext);

      expectClientAnswer(withBody);
      expect([withBody.statusCode, JSON.parse(withBody.body).code]).toEqual([400, 'INVALID_BODY']);
      // The same request without the body then does what it asks, as it would have without the first.
      expect([200, 204]).toContain(withoutBody.statusCode);
      if (route.operationId !== 'deleteLowStockThreshold')
        expect(JSON.parse(withoutBody.body).status ?? JSON.parse(withoutBody.body).reservation.status).toBe(
          route.operationId === 'commitReservation' ? 'committed' : 'released',
        );
    },
  );

  it('are allowed by the authorizer or denied (401), never failed (503)', async () => {
    // Credentials, none to several, among arbitrary headers: the key, under any spelling of the name, may come twice.
    const credentials = fc.array(
      fc.tuple(
        fc.constantFrom('Authorization', 'authorization', 'AUTHORIZATION'),
        fc.constantFrom('Bearer <key>', 'bearer <key>', 'Bearer x'),
      ),
      { maxLength: 2 },
    );
    const headerPairs = fc
      .tuple(credentials, entries(headerValue))
      .chain(([sent, other]) => fc.shuffledSubarray([...sent, ...other], { minLength: sent.length + other.length }));
    // Each event from an address of its own, so that no address's window of failed authentications fills up.
    const authorizerEvents = fc
      .record({
        headers: maps(
          headerValue,
          headerPairs.map((pairs) => pairs.map(([header, value]): [string, string] => [header, withKey(value)])),
        ),
        query: maps(text),
        sourceIp: fc.ipV4(),
      })
      .map(({ headers, query, sourceIp }) =>
        asLambdaReceivesIt<APIGatewayRequestAuthorizerEvent>({
          type: 'REQUEST',
          methodArn: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/v1/GET/inventory',
          resource: '/inventory',
          path: '/inventory',
          httpMethod: 'GET',
          headers: headers === null || headers === undefined ? headers : headers.single,
          multiValueHeaders: headers === null || headers === undefined ? headers : headers.multi,
          queryStringParameters: query?.single ?? null,
          multiValueQueryStringParameters: query?.multi ?? null,
          pathParameters: null,
          stageVariables: null,
          requestContext: { requestId: 'arbitrary', stage: 'v1', identity: { sourceIp } },
        }),
      );
    let allowed = 0;

    await fc.assert(
      fc.asyncProperty(authorizerEvents, async (event) => {
        const outcome = await authorizer(event, lambdaContext).then(
          (result) => (result.policyDocument.Statement[0]?.Effect === 'Deny' ? 'denied' : result.principalId),
          (error: Error) => error.message,
        );

        if (outcome === 'denied') return;
        allowed += 1;
        expect(outcome).toMatch(/^key_/);
        // Allowed on exactly one Authorization header: two are ambiguous, whichever way they are spelled.
        const sent = Object.entries(event.multiValueHeaders ?? {}).filter(([header]) => header.toLowerCase() === 'authorization');
        expect(sent.flatMap(([, values]) => values ?? [])).toHaveLength(1);
      }),
      propertyRuns({ numRuns: 300 }),
    );
    // The generator reaches the Allow path too, not only refusals.
    expect(allowed).toBeGreaterThan(0);
  });
});
