import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, zodToOpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { PLAN_LIMITS } from '../functions/domain/plans.ts';
import {
  INVENTORY_LOW_STOCK,
  INVENTORY_RESTOCKED,
  MAX_BATCH_CHANGES,
  MAX_QUANTITY,
  MAX_RESERVATION_ITEMS,
} from '../functions/domain/vocabulary.ts';
import {
  AdjustedInventoryItems,
  CommittedReservation,
  Reservation,
  ReservationRequest,
  AdjustmentReason,
  ChangeEventData,
  ChangeFeedPage,
  ChangesPage,
  Delta,
  InventoryChange,
  ErrorBody,
  InventoryAdjustment,
  InventoryAdjustmentBatch,
  InventoryChangedEvent,
  InventoryItem,
  InventoryLowStockEvent,
  InventoryRestockedEvent,
  InventoryUpdate,
  LowStockThreshold,
  LowStockThresholdUpdate,
  Pet,
  PetAdjustment,
  PetId,
  PetStatus,
  Quantity,
  StockAlertData,
} from '../functions/domain/schemas.ts';
import { API_DOCUMENTATION_URL } from '../functions/domain/lifecycle.ts';
import { IDEMPOTENCY_WINDOW_SECONDS } from '../functions/domain/idempotent-writes.ts';
import { IDEMPOTENCY_KEY_FIELD_PATTERN, IDEMPOTENCY_KEY_HEADER } from '../functions/http/idempotency-key.ts';
import { apiRoutes, type ApiRoute, type OperationId, type QueryParameter, type SchemaName } from '../functions/routes.ts';
import { API_KEY_VARIABLE, curlCommand, type OperationExample } from './examples.ts';
import { answersOf, DEPRECATION_HEADERS, RATE_LIMIT_DRAFT, registerHeaders, type SignalHeader } from './openapi-answers.ts';
import { inventoryChangedWebhook, stockAlertWebhook } from './openapi-webhooks.ts';
import { OPERATION_DESCRIPTIONS } from './operation-documents.ts';
import { SCHEMAS_BY_NAME } from './schemas-by-name.ts';

/**
 * The published contract, generated from the zod schemas the handlers validate with: the
 * schemas are annotated, never restated, so a change to a schema changes openapi.json (and
 * `npm run openapi:check` fails until it is regenerated). Each operation's facts (path, method,
 * parameters, body and answer schemas, stability, deprecation) come from the operation registry
 * (functions/routes.ts), with the Idempotency-Key header, the body's description and the answers
 * those facts decide (requestHeaders, registryAnswers); its prose, its own answers and its worked
 * example from operation-documents.ts; its headers from openapi-answers.ts. This file puts them
 * together.
 */

const API_VERSION = '1.0.0';
const BEARER = 'bearerAuth';

/** The placeholder servers of the committed openapi.json; a served copy names the server that serves it instead. */
const PLACEHOLDER_SERVERS = [
  { url: 'https://{host}/v1', description: 'Production (placeholder host)', variables: { host: { default: 'api.petstore.example' } } },
  { url: 'https://{host}/v1', description: 'Staging (placeholder host)', variables: { host: { default: 'staging.api.petstore.example' } } },
];

export interface PublishedDocumentOptions {
  /** The base URL (ending in /v1) of the server that serves this copy: it becomes the only server, and the curl examples call it. */
  serverUrl?: string;
  /** The Sunset of getPetById where this copy is served (PETS_SUNSET_DATE); the default sunset otherwise. */
  petsSunset?: Date;
}

type SchemaAnnotation = NonNullable<Parameters<typeof zodToOpenAPIRegistry.add>[1]>;
type Operation = Parameters<OpenAPIRegistry['registerPath']>[0];

/**
 * Names the schemas in components/schemas and adds what zod cannot say (int64 as a JSON
 * integer, descriptions). The annotations go on the very instances the handlers validate
 * with, in zod-to-openapi's own registry: `.openapi()` or `.meta()` would annotate copies,
 * and the schemas nested in InventoryItem (PetId, PetStatus) would be inlined, not referenced.
 */
function annotateSchemas(): void {
  const annotate = (schema: z.ZodType, refId: string, metadata: Omit<SchemaAnnotation, '_internal'>) =>
    zodToOpenAPIRegistry.add(schema, { ...metadata, _internal: { refId } });
  // zod-to-openapi writes a bigint as a string of digits; on the wire petId is a JSON integer of up to 19 digits.
  annotate(PetId, 'PetId', {
    type: 'integer',
    format: 'int64',
    minimum: Number(PetId.minValue),
    pattern: undefined,
    description: `Identifier of a pet: an int64 from ${PetId.minValue} to ${PetId.maxValue}. Ids above 2^53 (such as 9007199254740993) do not fit a double: parse them as big integers, as the typed client does.`,
    examples: [1],
  });
  annotate(PetStatus, 'PetStatus', { description: 'Status of the pet.' });
  annotate(Quantity, 'Quantity', { format: 'int32', description: `Stock count, from 0 to ${MAX_QUANTITY}.` });
  annotate(InventoryItem, 'InventoryItem', {
    description:
      'The stock level of one pet: `quantity` on hand, `reserved` by reservations that have not expired (read at the moment of the answer), and `available` to promise (`quantity - reserved`, never below 0: a count set below what is reserved answers 0).',
  });
  annotate(ReservationRequest, 'ReservationRequest', {
    description: `A cart: from 1 to ${MAX_RESERVATION_ITEMS} items, each pet once, held all or none until ttlSeconds have passed; \`reference\` is yours (an order or cart id), kept and shown in each pet's history.`,
  });
  annotate(Reservation, 'Reservation', { description: 'Stock held for a cart until `expiresAt`, and what became of it.' });
  annotate(CommittedReservation, 'CommittedReservation', { description: 'A committed reservation and the entries it left.' });
  annotate(InventoryUpdate, 'InventoryUpdate', {
    description:
      'The new stock count: an absolute value, not a change, so sending it twice has the effect of sending it once. With `changeFromQuantity` it is a compare-and-set: written only while the stored count is `changeFromQuantity`, otherwise 409 `QUANTITY_CHANGED` and nothing is written.',
  });
  annotate(AdjustmentReason, 'AdjustmentReason', {
    description: 'Why the stock changes: a new arrival, a return, or a manual correction.',
  });
  annotate(Delta, 'Delta', {
    description: `The change of stock, positive or negative, never 0, from -${MAX_QUANTITY} to ${MAX_QUANTITY}.`,
  });
  annotate(InventoryAdjustment, 'InventoryAdjustment', {
    description:
      'A relative change of stock, applied exactly once per Idempotency-Key: the stock can neither go below 0 nor above the largest quantity.',
  });
  annotate(InventoryChange, 'InventoryChange', {
    description:
      "One change of a pet's entry: its version (1 for the change that created the entry, then +1 per change), when, by which writer (`kind`), the quantity before and after, why (`reason`, `idempotencyKey` of adjustments), the request (`requestId`, its X-Request-Id) and who (`keyId`, the public id of the API key, or `tool:<name>` for the operators' tools).",
  });
  annotate(ChangesPage, 'ChangesPage', {
    description: "A page of a pet's history, oldest first; `nextCursor` is null on the last page.",
  });
  annotate(ChangeEventData, 'ChangeEventData', {
    description:
      'A change of one pet with its petId: a record of the change feed, the `data` of an `inventory.changed` webhook and the `detail` of its EventBridge event on AWS, all alike. `(petId, version)` names it: deduplicate by it.',
  });
  annotate(ChangeFeedPage, 'ChangeFeedPage', {
    description:
      "A page of the change feed, in the feed's one order; `nextCursor` is always a cursor (on an empty page, the one sent), so a poller resumes from it for ever.",
  });
  annotate(LowStockThresholdUpdate, 'LowStockThresholdUpdate', {
    description: `A pet's low-stock threshold: an integer from 0 to ${MAX_QUANTITY}; below this many available, the pet is low on stock.`,
  });
  annotate(LowStockThreshold, 'LowStockThreshold', { description: "A pet's low-stock threshold, as set." });
  annotate(StockAlertData, 'StockAlertData', {
    description:
      "What a low-stock alert says: the pet, its threshold, the stock the crossing change left (`available` is what can be promised: the quantity less what is reserved), and that change's `version`, which is in the pet's history. The `detail` of the alert's EventBridge event on AWS too.",
  });
  annotate(InventoryLowStockEvent, 'InventoryLowStockEvent', {
    description: "The body of an `inventory.low_stock` webhook: `timestamp` is the crossing change's `occurredAt`.",
  });
  annotate(InventoryRestockedEvent, 'InventoryRestockedEvent', {
    description: "The body of an `inventory.restocked` webhook: `timestamp` is the crossing change's `occurredAt`.",
  });
  annotate(InventoryChangedEvent, 'InventoryChangedEvent', {
    description:
      "The body of an `inventory.changed` webhook, shaped as the Standard Webhooks specification has it: `timestamp` is the change's `occurredAt`, so every attempt sends the same bytes.",
  });
  annotate(PetAdjustment, 'PetAdjustment', {
    description: "One adjustment of a batch: a relative change of one pet's stock, with the same rules as a single adjustment.",
  });
  annotate(InventoryAdjustmentBatch, 'InventoryAdjustmentBatch', {
    description: `From 1 to ${MAX_BATCH_CHANGES} adjustments, each pet at most once, applied all or none.`,
  });
  annotate(AdjustedInventoryItems, 'AdjustedInventoryItems', {
    description: 'The entries a batch changed, as stored right after it, in the order of its adjustments.',
  });
  annotate(Pet, 'Pet', {
    description:
      "What this service knows of a pet: its id and status, taken from the inventory (the Petstore Pet's other fields are not held here).",
  });
  annotate(ErrorBody, 'Error', {
    description:
      'Every error answer. `code` is stable and machine-readable (each response lists the codes it can carry; new codes may be added); `status` repeats the HTTP status.',
  });
}

/** The registry's operations, every field of ApiRoute readable on each. */
const ROUTES: readonly (ApiRoute & { operationId: OperationId })[] = apiRoutes;

/** The schema of each path parameter a resource names (`{petId}`). */
const PATH_PARAMETERS: Readonly<Record<string, z.ZodType>> = {
  petId: PetId,
  reservationId: z.uuid().meta({ description: 'The id `reserveInventory` answered.' }),
};

/** The Idempotency-Key header, on an operation the registry says takes one. */
const idempotencyKeyField = z
  .string()
  .regex(IDEMPOTENCY_KEY_FIELD_PATTERN)
  .meta({
    description: `1 to 255 visible ASCII characters, unique per change (a UUID), sent again on every retry of it. Remembered for ${IDEMPOTENCY_WINDOW_SECONDS / 3600} hours per API key. Bare (\`8e03978e-40d5-43e8-bc93-6894a57f9324\`) or as draft-ietf-httpapi-idempotency-key-header-07 writes it, a structured-field string (\`"8e03978e-40d5-43e8-bc93-6894a57f9324"\`, \`"\` and \`\\\` escaped with a backslash): both forms name the same key, so a retry in the other form replays.`,
  });

/** The request headers: the document's, then the Idempotency-Key, required or optional as the registry says. */
function requestHeaders(route: ApiRoute, documented: z.ZodObject | undefined): z.ZodObject | undefined {
  if (route.idempotencyKey === undefined) return documented;
  const key = { [IDEMPOTENCY_KEY_HEADER]: route.idempotencyKey === 'required' ? idempotencyKeyField : idempotencyKeyField.optional() };
  return documented ? documented.extend(key) : z.object(key);
}

const schemaNamed = (name: SchemaName): z.ZodType => SCHEMAS_BY_NAME[name];

/** What a 200 holds: the registry's `Name` or `Name[]`. */
function answerSchema(answer: ApiRoute['answer']): z.ZodType {
  return answer.endsWith('[]') ? z.array(schemaNamed(answer.slice(0, -2) as SchemaName)) : schemaNamed(answer as SchemaName);
}

function queryParameterSchema(parameter: QueryParameter): z.ZodType {
  const schema =
    parameter.type === 'integer'
      ? z.int().min(parameter.minimum).max(parameter.maximum)
      : parameter.type === 'string'
        ? z.string()
        : schemaNamed(parameter.type);
  return schema.optional().meta({ description: parameter.description });
}

/** The headers an operation's lifecycle puts on every answer of its function (http/lifecycle-headers.ts). */
function lifecycleSignals(route: ApiRoute): SignalHeader[] {
  return [...(route.stability === 'stable' ? [] : (['X-API-Stability'] as const)), ...(route.deprecation ? DEPRECATION_HEADERS : [])];
}

/** The summary's "(experimental)", "(beta)" or "(deprecated)", the badges of the reference page. */
function lifecycleOfSummary(route: ApiRoute): string {
  return `${route.stability === 'stable' ? '' : ` (${route.stability})`}${route.deprecation ? ' (deprecated)' : ''}`;
}

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The answers the registry's facts decide, which no document restates: every operation's 401 (the
 * authorizer answers it before the function), 429 (the plan's count, which every route makes),
 * 500 and 503; and for one that reads a body, the body reader's 413 at the route's cap and 415.
 */
function registryAnswers(route: ApiRoute, answers: ReturnType<typeof answersOf>): Record<number, ResponseConfig> {
  // A body reader does not run without its route's cap (http-handler.ts), and every route with a body states one (routes.ts).
  const bodyReader: Record<number, ResponseConfig> =
    route.maxBodyBytes === undefined ? {} : { 413: answers.tooLarge(route.maxBodyBytes), 415: answers.unsupportedMediaType };
  return {
    401: answers.unauthorized,
    ...bodyReader,
    429: answers.rateLimited,
    500: answers.internal,
    503: answers.unavailable,
  };
}

/**
 * The answers with the one the worked example prints, when that is a refusal (a success is the
 * success answer's example, bound in answersOf): shown alone under its status, in place of the
 * examples of its codes, so that the reference shows beside the curl line what it prints.
 */
function withExampleAnswer(
  responses: Record<number, ResponseConfig>,
  { answer }: OperationExample,
  operationId: OperationId,
): Record<number, ResponseConfig> {
  if (!('body' in answer) || answer.status < 400) return responses;
  const refusal = responses[answer.status];
  if (!refusal) throw new Error(`${operationId}'s example answers ${answer.status}, which its document does not list.`);
  return { ...responses, [answer.status]: { ...refusal, content: { 'application/json': { schema: ErrorBody, example: answer.body } } } };
}

/**
 * One operation of the registry as the document states it. The method and path are what is
 * deployed, so the two cannot disagree; each operation carries the curl line of its example
 * (x-codeSamples), generated here.
 */
function operation(
  route: (typeof ROUTES)[number],
  headers: ReturnType<typeof registerHeaders>,
  { serverUrl, petsSunset }: { serverUrl: string; petsSunset: Date | undefined },
): Operation {
  const { operationId } = route;
  const { answerHeaders = [], describe, example } = OPERATION_DESCRIPTIONS[operationId];
  const deprecation = route.deprecation && { ...route.deprecation, ...(petsSunset ? { sunsetAt: petsSunset } : {}) };
  const printed = 'body' in example.answer ? example.answer : undefined;
  const answers = answersOf(headers, [...answerHeaders, ...lifecycleSignals(route)], {
    schema: answerSchema(route.answer),
    ...(printed && printed.status < 400 ? { example: printed.body } : {}),
  });
  const document = describe({ answers, deprecation });
  const derived = registryAnswers(route, answers);
  const restated = Object.keys(document.responses).filter((status) => status in derived);
  if (restated.length > 0) throw new Error(`${operationId}'s document states ${restated.join(', ')}, which the registry decides.`);
  const pathParameters = [...route.resource.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!);
  const headerParameters = requestHeaders(route, document.headers);
  return {
    tags: [...document.tags],
    summary: `${document.summary}${lifecycleOfSummary(route)}`,
    description: document.description,
    ...(route.stability === 'stable' ? {} : { [`x-${route.stability}`]: true }),
    ...(deprecation ? { deprecated: true, 'x-sunset': isoDate(deprecation.sunsetAt) } : {}),
    request: {
      ...(pathParameters.length > 0
        ? { params: z.object(Object.fromEntries(pathParameters.map((name) => [name, PATH_PARAMETERS[name]!]))) }
        : {}),
      ...(route.query
        ? {
            query: z.object(
              Object.fromEntries(Object.entries(route.query).map(([name, parameter]) => [name, queryParameterSchema(parameter)])),
            ),
          }
        : {}),
      ...(headerParameters ? { headers: headerParameters } : {}),
      ...(route.body
        ? {
            body: {
              required: true,
              description: `A JSON object of at most ${route.maxBodyBytes} bytes.`,
              content: {
                'application/json': {
                  schema: schemaNamed(route.body),
                  ...(example.body === undefined ? {} : { example: example.body }),
                },
              },
            },
          }
        : {}),
    },
    responses: withExampleAnswer({ ...derived, ...document.responses }, example, operationId),
    method: route.method.toLowerCase() as Operation['method'],
    path: route.resource,
    operationId,
    security: [{ [BEARER]: [] }],
    'x-codeSamples': [{ lang: 'Shell', label: 'curl', source: curlCommand(serverUrl, route.method, example) }],
  };
}

/** `a`, `a` and `b`, `a`, `b` and `c`. */
const inWords = (names: readonly string[]) =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');

/** The info's sentence on which operations are experimental, beta or deprecated, from the registry. */
function lifecycleSentence(): string {
  const named = (routes: readonly ApiRoute[]) => inWords(routes.map((route) => `\`${route.operationId}\``));
  const verb = (routes: readonly ApiRoute[]) => (routes.length > 1 ? 'are' : 'is');
  const clauses = (['experimental', 'beta'] as const)
    .map((stability) => ROUTES.filter((route) => route.stability === stability))
    .filter((routes) => routes.length > 0)
    .map((routes) => `${named(routes)} ${verb(routes)} ${routes[0]!.stability} (\`x-${routes[0]!.stability}\`, \`X-API-Stability\`)`);
  const deprecated = ROUTES.filter((route) => route.deprecation);
  if (deprecated.length > 0) clauses.push(`${named(deprecated)} ${verb(deprecated)} deprecated (\`Deprecation\`, \`Sunset\`, \`Link\`)`);
  return `${clauses.join('; ')}.`;
}

/** The plans table of SPEC section 8, as Markdown. */
function plansTable(): string {
  const rows = Object.entries(PLAN_LIMITS).map(
    ([plan, { perMinute, perDay }]) => `| ${plan} | ${perMinute.toLocaleString('en-US')} | ${perDay.toLocaleString('en-US')} |`,
  );
  return [
    '| plan | requests per minute | requests per UTC day |',
    '|---|---|---|',
    ...rows,
    '| enterprise | agreed per key | agreed per key |',
  ].join('\n');
}

export function buildOpenApiDocument(options: PublishedDocumentOptions = {}) {
  const { petsSunset } = options;
  const servers = options.serverUrl
    ? [{ url: options.serverUrl, description: 'The server that serves this document' }]
    : PLACEHOLDER_SERVERS;
  const exampleServer = options.serverUrl ?? PLACEHOLDER_SERVERS[0]!.url.replace('{host}', PLACEHOLDER_SERVERS[0]!.variables.host.default);
  annotateSchemas();
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', BEARER, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'API key',
    description: 'Send the API key as a bearer token: `Authorization: Bearer <API_KEY>`.',
  });
  const headers = registerHeaders(registry, petsSunset);
  for (const route of ROUTES) registry.registerPath(operation(route, headers, { serverUrl: exampleServer, petsSunset }));
  registry.registerWebhook(inventoryChangedWebhook());
  registry.registerWebhook(stockAlertWebhook(INVENTORY_LOW_STOCK));
  registry.registerWebhook(stockAlertWebhook(INVENTORY_RESTOCKED));

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Pet Store Inventory API',
      version: API_VERSION,
      description: [
        'Stock levels of the pets in the store. Every operation needs an API key sent as `Authorization: Bearer <API_KEY>`.',
        `**Limits** are counted per key, by its plan:`,
        plansTable(),
        `Every answer to an authenticated request carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (the window closest to exhaustion), and the structured fields of ${RATE_LIMIT_DRAFT}: \`RateLimit-Policy\` (each window's quota \`q\` and length \`w\`) and \`RateLimit\` (each window's remaining \`r\` and seconds to reset \`t\`). Over the limit the answer is 429 with \`Retry-After\`: wait that long, then back off exponentially; a key that keeps sending after 429s is banned for a while.`,
        "**Errors** are JSON `{code, message, status}` (schema `Error`); each response below lists its codes. A path or method that is not listed answers 404 `ROUTE_NOT_FOUND`, with the rate-limit headers of the source address's window of failed authentications, which it does not count (all of it remaining).",
        '**Integers**: petId is an int64 and may exceed 2^53; parse it as a big integer.',
        "**Events**: every change of stock is in its pet's history (`listInventoryChanges`), in the change feed every system can follow (`listInventoryChangeFeed`), and POSTed, signed, to the webhook URLs of the server (`webhooks`: `inventory.changed`); a change that crosses a pet's low-stock threshold also raises `inventory.low_stock` or `inventory.restocked`.",
        `**Versioning**: \`v1\` is the last path segment of every server. ${lifecycleSentence()}`,
        options.serverUrl
          ? `**Server**: ${options.serverUrl}, the server that serves this document. The examples read the key from \`$${API_KEY_VARIABLE}\`.`
          : "**Servers**: the hosts are placeholders (the `.example` domain); replace `host` with the stage's custom domain or its execute-api host. Each stage serves this document with its own URL at `/v1/openapi.json`, and the reference at `/v1/docs`.",
      ].join('\n\n'),
    },
    externalDocs: { description: 'API documentation, deprecations and sunsets', url: API_DOCUMENTATION_URL },
    servers,
    tags: [
      { name: 'Store', description: 'Store operations: the inventory.' },
      { name: 'Pets', description: 'Pet operations.' },
    ],
    security: [{ [BEARER]: [] }],
  });
}

type BuiltDocument = ReturnType<typeof buildOpenApiDocument>;

/**
 * The same document with each answer that more than one operation gives alike (the 401, 429, 500
 * and 503 of every operation, the 413 and 415 of every write) stated once, under
 * `components.responses`, and referenced where it is given: a reader resolving `$ref` reads the
 * same answers. Stated in each operation, they were half the served copy, which a stage serves
 * from one mapping template of at most 300 KB. Named by status and their codes, numbered when
 * two answers of one status and codes differ (a write's 503 says more than a read's).
 */
export function withSharedResponses(document: BuiltDocument): BuiltDocument {
  const operations = Object.values(document.paths ?? {}).flatMap((pathItem) =>
    Object.values(pathItem ?? {}).filter(
      (value): value is { responses: Record<string, unknown> } => typeof value === 'object' && value !== null && 'responses' in value,
    ),
  );
  const textOf = (status: string, response: unknown) =>
    `${status} ${JSON.stringify(response, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value))}`;
  const givenBy = new Map<string, number>();
  for (const { responses } of operations)
    for (const [status, response] of Object.entries(responses))
      givenBy.set(textOf(status, response), (givenBy.get(textOf(status, response)) ?? 0) + 1);
  const names = new Map<string, string>();
  const shared: Record<string, unknown> = {};
  const nameOf = (status: string, response: unknown) => {
    const key = textOf(status, response);
    const known = names.get(key);
    if (known) return known;
    const codes = Object.keys(
      (response as { content?: Record<string, { examples?: object }> }).content?.['application/json']?.examples ?? {},
    );
    const base = [status, ...codes].join('-');
    let name = base;
    for (let index = 2; name in shared; index += 1) name = `${base}-${index}`;
    names.set(key, name);
    shared[name] = response;
    return name;
  };
  return {
    ...document,
    paths: Object.fromEntries(
      Object.entries(document.paths ?? {}).map(([path, pathItem]) => [
        path,
        Object.fromEntries(
          Object.entries(pathItem ?? {}).map(([method, value]) => {
            if (typeof value !== 'object' || value === null || !('responses' in value)) return [method, value];
            const responses = Object.fromEntries(
              Object.entries(value.responses as Record<string, unknown>).map(([status, response]) =>
                (givenBy.get(textOf(status, response)) ?? 0) > 1
                  ? [status, { $ref: `#/components/responses/${nameOf(status, response)}` }]
                  : [status, response],
              ),
            );
            return [method, { ...value, responses }];
          }),
        ),
      ]),
    ),
    components: { ...document.components, responses: shared },
  } as BuiltDocument;
}

/**
 * The text of openapi.json (what `npm run openapi` writes, indented for people reading its
 * changes), or of a served copy (compact: it is read by programs, and a stage serves it from one
 * mapping template of at most 300 KB). The examples' int64 ids are written digit for digit;
 * non-ASCII characters as \u escapes, so the text is ASCII and survives any byte-to-text step on
 * its way (API Gateway's mapping templates).
 */
export function renderOpenApiDocument(options: PublishedDocumentOptions = {}, { compact = false }: { compact?: boolean } = {}): string {
  const document = buildOpenApiDocument(options);
  const text = JSON.stringify(
    compact ? withSharedResponses(document) : document,
    (_key, value: unknown) => (typeof value === 'bigint' ? JSON.rawJSON(value.toString()) : value),
    compact ? undefined : 2,
  );
  return `${text.replace(/[\u0080-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}
