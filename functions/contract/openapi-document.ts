import { OpenAPIRegistry, OpenApiGeneratorV31, zodToOpenAPIRegistry, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ErrorCode } from '../domain/errors.ts';
import { PLAN_LIMITS } from '../domain/plans.ts';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_WINDOW_SECONDS } from '../domain/inventory-adjustments.ts';
import { AdjustmentReason, Delta, ErrorBody, InventoryAdjustment, InventoryItem, InventoryUpdate, MAX_QUANTITY, Pet, PetId, PetStatus, Quantity } from '../domain/schemas.ts';
import { REPLAYED_HEADER } from '../handlers/adjust-inventory-handler.ts';
import { API_DOCUMENTATION_URL, GET_PET_BY_ID_DEPRECATION_NOTICE, getPetByIdDeprecation } from '../domain/versioning.ts';
import { MAX_BODY_BYTES } from '../http/json-body.ts';
import { REQUEST_ID_HEADER } from '../http/request-context.ts';
import { deprecationHeaders } from '../http/versioning-headers.ts';
import { apiRoutes, type ApiRoute } from '../routes.ts';

/**
 * The published contract, generated from the zod schemas the handlers validate with: the
 * schemas are annotated, never restated, so a change to a schema changes openapi.json (and
 * `npm run openapi:check` fails until it is regenerated). Paths and methods come from routes.ts.
 */

const API_VERSION = '1.0.0';
const BEARER = 'bearerAuth';

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
    description:
      `Identifier of a pet: an int64 from ${PetId.minValue} to ${PetId.maxValue}. Ids above 2^53 (such as 9007199254740993) do not fit a double: parse them as big integers, as the typed client does.`,
    examples: [1],
  });
  annotate(PetStatus, 'PetStatus', { description: 'Status of the pet.' });
  annotate(Quantity, 'Quantity', { format: 'int32', description: `Stock count, from 0 to ${MAX_QUANTITY}.` });
  annotate(InventoryItem, 'InventoryItem', { description: 'The stock level of one pet.' });
  annotate(InventoryUpdate, 'InventoryUpdate', {
    description:
      'The new stock count: an absolute value, not a change, so sending it twice has the effect of sending it once. With `changeFromQuantity` it is a compare-and-set: written only while the stored count is `changeFromQuantity` (or already `quantity`), otherwise 409 `QUANTITY_CHANGED` and nothing is written.',
  });
  annotate(AdjustmentReason, 'AdjustmentReason', { description: 'Why the stock changes: a new arrival, a return, or a manual correction.' });
  annotate(Delta, 'Delta', { description: `The change of stock, positive or negative, never 0, from -${MAX_QUANTITY} to ${MAX_QUANTITY}.` });
  annotate(InventoryAdjustment, 'InventoryAdjustment', {
    description: 'A relative change of stock, applied exactly once per Idempotency-Key: the stock can neither go below 0 nor above the largest quantity.',
  });
  annotate(Pet, 'Pet', {
    description: "What this service knows of a pet: its id and status, taken from the inventory (the Petstore Pet's other fields are not held here).",
  });
  annotate(ErrorBody, 'Error', {
    description:
      'Every error answer. `code` is stable and machine-readable (each response lists the codes it can carry; new codes may be added); `status` repeats the HTTP status.',
  });
}

type HeaderName =
  | typeof REQUEST_ID_HEADER
  | 'X-RateLimit-Limit'
  | 'X-RateLimit-Remaining'
  | 'X-RateLimit-Reset'
  | 'Retry-After'
  | 'X-API-Stability'
  | 'Deprecation'
  | 'Sunset'
  | 'Link'
  | typeof REPLAYED_HEADER;
/** Headers stated once in components/headers and referenced; Idempotent-Replayed is only ever optional, so it is stated inline. */
type RegisteredHeader = Exclude<HeaderName, typeof REPLAYED_HEADER>;
type HeaderObject = { description: string; required?: boolean; schema: Record<string, unknown> };
type ResponseHeaders = Record<string, HeaderObject | { $ref: string }>;

const RATE_LIMIT_HEADERS: readonly RegisteredHeader[] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
const DEPRECATION_HEADERS: readonly RegisteredHeader[] = ['Deprecation', 'Sunset', 'Link'];
const HTTP_DATE = '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$';

function headerDefinitions(): Record<HeaderName, HeaderObject> {
  const integer = (minimum: number) => ({ type: 'integer', minimum });
  const defaults = deprecationHeaders(getPetByIdDeprecation());
  return {
    [REQUEST_ID_HEADER]: {
      description: "The request's id, on every answer (API Gateway's own answers too): quote it when reporting a failed call; it finds the request in the service's access and function logs.",
      schema: { type: 'string', minLength: 1 },
    },
    'X-RateLimit-Limit': { description: 'Requests allowed in the window closest to exhaustion (the minute or the UTC day).', schema: integer(1) },
    'X-RateLimit-Remaining': { description: 'Requests left in that window.', schema: integer(0) },
    'X-RateLimit-Reset': { description: 'Unix time (seconds) at which that window resets.', schema: integer(0) },
    'Retry-After': { description: 'Seconds to wait before retrying.', schema: integer(1) },
    'X-API-Stability': {
      description: 'The operation is experimental: its request shape may change before it becomes stable (SPEC section 9).',
      schema: { type: 'string', enum: ['experimental'] },
    },
    Deprecation: {
      description: 'RFC 9745: the operation is deprecated since this moment (a structured-field date: `@` and Unix seconds).',
      schema: { type: 'string', pattern: '^@-?[0-9]+$', examples: [defaults.Deprecation] },
    },
    Sunset: {
      description: `RFC 8594: an HTTP-date after which the operation may stop answering. Set per stage; ${defaults.Sunset} unless configured otherwise.`,
      schema: { type: 'string', pattern: HTTP_DATE, examples: [defaults.Sunset] },
    },
    Link: {
      description: 'Where the deprecation and the sunset are explained (rel="deprecation", rel="sunset").',
      schema: { type: 'string', examples: [defaults.Link] },
    },
    [REPLAYED_HEADER]: {
      description: 'Present when the answer repeats the outcome of an earlier request with the same Idempotency-Key: nothing was applied this time.',
      schema: { type: 'string', enum: ['true'] },
    },
  };
}

function codesSentence(codes: readonly ErrorCode[]): string {
  return `Codes: ${codes.map((code) => `\`${code}\``).join(', ')}.`;
}

/** Every header in components/headers (always sent where listed); `optional` restates one for answers that may lack it. */
function registerHeaders(registry: OpenAPIRegistry) {
  const definitions = headerDefinitions();
  const refs = Object.fromEntries(
    Object.entries(definitions)
      .filter(([name]) => name !== REPLAYED_HEADER)
      .map(([name, header]) => [name, registry.registerComponent('headers', name, { ...header, required: true }).ref]),
  ) as Record<RegisteredHeader, { $ref: string }>;
  return {
    required: (names: readonly RegisteredHeader[]): ResponseHeaders => Object.fromEntries(names.map((name) => [name, refs[name]])),
    optional: (names: readonly HeaderName[]): ResponseHeaders =>
      Object.fromEntries(
        names.map((name) => [
          name,
          name === REPLAYED_HEADER
            ? { ...definitions[name], required: false }
            : { ...definitions[name], required: false, description: `${definitions[name].description} Absent when API Gateway answered without reaching the function.` },
        ]),
      ),
  };
}

/**
 * The answers of one operation, by who gives them. The function answers after the plan limits
 * counted the request: its answers carry the X-RateLimit-* headers and the operation's own
 * signals (stability, deprecation). API Gateway answers 401 before the key is known, and may
 * answer 500 or 503 on its own (function unreachable, authorizer failing): there those headers
 * are absent or optional.
 */
function answersOf({ required, optional }: ReturnType<typeof registerHeaders>, signals: readonly RegisteredHeader[]) {
  const fromFunction = [...RATE_LIMIT_HEADERS, ...signals];
  const everyAnswer = required([REQUEST_ID_HEADER]);
  const error = (description: string, codes: readonly ErrorCode[], headers: ResponseHeaders = {}): ResponseConfig => ({
    description: `${description} ${codesSentence(codes)}`,
    headers: { ...everyAnswer, ...headers },
    content: { 'application/json': { schema: ErrorBody } },
  });
  return {
    success: (description: string, schema: z.ZodType, optionalHeaders: readonly HeaderName[] = []): ResponseConfig => ({
      description,
      headers: { ...everyAnswer, ...required(fromFunction), ...optional(optionalHeaders) },
      content: { 'application/json': { schema } },
    }),
    error: (description: string, codes: readonly ErrorCode[], optionalHeaders: readonly HeaderName[] = []) =>
      error(description, codes, { ...required(fromFunction), ...optional(optionalHeaders) }),
    unauthorized: error(
      "The API key is missing, malformed, unknown or revoked. API Gateway answers before the key is known, so without the headers the function adds (X-RateLimit-*, the operation's signals).",
      [ErrorCode.unauthorized],
    ),
    rateLimited: error(
      'Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff.',
      [ErrorCode.rateLimited, ErrorCode.quotaExceeded, ErrorCode.keyBanned],
      required([...fromFunction, 'Retry-After']),
    ),
    internal: error('An unexpected error; the detail is in the service logs only.', [ErrorCode.internal], optional(fromFunction)),
    unavailable: error('The data store or the authorizer is temporarily unavailable. Retry after Retry-After.', [ErrorCode.serviceUnavailable], {
      ...optional(fromFunction),
      ...required(['Retry-After']),
    }),
  };
}

function routeFor(operationId: string): ApiRoute {
  const route = apiRoutes.find((candidate) => candidate.operationId === operationId);
  if (!route) throw new Error(`routes.ts has no operation ${operationId}`);
  return route;
}

/** routes.ts is what is deployed; the document takes method and path from it so the two cannot disagree. */
function operation(operationId: string, rest: Omit<Operation, 'method' | 'path' | 'operationId' | 'security'>): Operation {
  const { method, resource } = routeFor(operationId);
  return { ...rest, method: method.toLowerCase() as Operation['method'], path: resource, operationId, security: [{ [BEARER]: [] }] };
}

export function buildOpenApiDocument() {
  annotateSchemas();
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', BEARER, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'API key',
    description: 'Send the API key as a bearer token: `Authorization: Bearer <API_KEY>`.',
  });
  const headers = registerHeaders(registry);
  const petIdParameter = z.object({ petId: PetId });
  const invalidPetId = `petId is not a canonical integer from ${PetId.minValue} to ${PetId.maxValue} (no sign, leading zeros or exponent).`;

  const inventory = answersOf(headers, []);
  registry.registerPath(
    operation('listInventory', {
      tags: ['Store'],
      summary: 'List the stock level of every pet',
      description: 'One entry per pet, sorted by petId. The whole inventory is returned at once, never truncated.',
      responses: {
        200: inventory.success('Every inventory entry, sorted by petId.', z.array(InventoryItem)),
        401: inventory.unauthorized,
        422: inventory.error("The inventory is larger than one response can carry (Lambda's 6 MiB limit); it is refused rather than truncated.", [
          ErrorCode.inventoryTooLarge,
        ]),
        429: inventory.rateLimited,
        500: inventory.internal,
        503: inventory.unavailable,
      },
    }),
  );

  registry.registerPath(
    operation('getInventoryItem', {
      tags: ['Store'],
      summary: 'Read the stock level of one pet',
      description: 'The entry of one pet, read strongly consistent: it reflects every write answered before the read, so a compare-and-set built on it does not fail on a stale count.',
      request: { params: petIdParameter },
      responses: {
        200: inventory.success('The entry.', InventoryItem),
        400: inventory.error(invalidPetId, [ErrorCode.invalidPetId]),
        401: inventory.unauthorized,
        404: inventory.error('No inventory entry exists for petId.', [ErrorCode.petNotFound]),
        429: inventory.rateLimited,
        500: inventory.internal,
        503: inventory.unavailable,
      },
    }),
  );

  const experimental = answersOf(headers, ['X-API-Stability']);
  registry.registerPath(
    operation('updateInventory', {
      tags: ['Store'],
      summary: 'Set the stock count of one pet (experimental)',
      description:
        'Sets `quantity` of an existing entry and returns the entry; `status` is left as it is. Without `changeFromQuantity` the write is blind: the last writer wins. With it, the write is a compare-and-set against the count the client read (`getInventoryItem`), so a change made in between is never overwritten; a stored count that already equals `quantity` answers 200, so retrying a compare-and-set whose answer was lost is safe. **Experimental**: the request shape may change before the operation becomes stable; every answer of the function says so in `X-API-Stability: experimental`. The quantity is absolute, so the call is idempotent and safe to retry.',
      'x-experimental': true,
      request: {
        params: petIdParameter,
        body: { required: true, description: `A JSON object of at most ${MAX_BODY_BYTES} bytes.`, content: { 'application/json': { schema: InventoryUpdate } } },
      },
      responses: {
        200: experimental.success('The entry with its new quantity.', InventoryItem),
        400: experimental.error(`The body is not JSON, lacks \`quantity\` or holds an invalid value, or ${invalidPetId}`, [
          ErrorCode.invalidBody,
          ErrorCode.malformedJson,
          ErrorCode.invalidPetId,
        ]),
        401: experimental.unauthorized,
        404: experimental.error('No inventory entry exists for petId.', [ErrorCode.petNotFound]),
        409: experimental.error('`changeFromQuantity` was given and the stored quantity is neither it nor `quantity`; the message states the stored quantity. Nothing was written.', [
          ErrorCode.quantityChanged,
        ]),
        413: experimental.error(`The body is larger than ${MAX_BODY_BYTES} bytes.`, [ErrorCode.payloadTooLarge]),
        415: experimental.error('The body is not sent as Content-Type: application/json.', [ErrorCode.unsupportedMediaType]),
        429: experimental.rateLimited,
        500: experimental.internal,
        503: experimental.unavailable,
      },
    }),
  );

  const idempotencyKey = z.object({
    'Idempotency-Key': z.string().regex(IDEMPOTENCY_KEY_PATTERN).meta({
      description: `1 to 255 visible ASCII characters, unique per adjustment (a UUID), sent again unchanged on every retry of it. Remembered for ${IDEMPOTENCY_WINDOW_SECONDS / 3600} hours per API key.`,
    }),
  });
  registry.registerPath(
    operation('adjustInventory', {
      tags: ['Store'],
      summary: 'Change the stock of one pet by a delta, exactly once (experimental)',
      description: [
        'Adds `delta` (negative to remove) to the stock of an existing entry and returns the entry; `status` is left as it is. Use it for arrivals, returns and corrections that are relative: concurrent adjustments of one pet never lose each other.',
        `**Exactly once**: the same \`Idempotency-Key\` from the same API key, for the same petId and body, within ${IDEMPOTENCY_WINDOW_SECONDS / 3600} hours, answers what the first request answered (200, 404 or 409, with \`${REPLAYED_HEADER}: true\`) and applies nothing; the same key with another request answers 422. Concurrent duplicates apply once, and each answers the same outcome. 429 and 5xx answers are not remembered: a retry runs afresh. A replay counts against the plan like any request.`,
        '**Experimental**: the request shape may change before the operation becomes stable; every answer of the function says so in `X-API-Stability: experimental`.',
      ].join('\n\n'),
      'x-experimental': true,
      request: {
        params: petIdParameter,
        headers: idempotencyKey,
        body: { required: true, description: `A JSON object of at most ${MAX_BODY_BYTES} bytes.`, content: { 'application/json': { schema: InventoryAdjustment } } },
      },
      responses: {
        200: experimental.success('The entry with its new quantity.', InventoryItem, [REPLAYED_HEADER]),
        400: experimental.error(
          `The body is not JSON, lacks \`delta\` or \`reason\` or holds an invalid value, the Idempotency-Key header is missing or malformed, or ${invalidPetId}`,
          [ErrorCode.invalidBody, ErrorCode.malformedJson, ErrorCode.idempotencyKeyRequired, ErrorCode.invalidPetId],
        ),
        401: experimental.unauthorized,
        404: experimental.error('No inventory entry exists for petId. Nothing was written.', [ErrorCode.petNotFound], [REPLAYED_HEADER]),
        409: experimental.error(
          `The delta would take the stock below 0 or above ${MAX_QUANTITY}; the message states the stock. Nothing was written.`,
          [ErrorCode.insufficientStock, ErrorCode.quantityOutOfRange],
          [REPLAYED_HEADER],
        ),
        413: experimental.error(`The body is larger than ${MAX_BODY_BYTES} bytes.`, [ErrorCode.payloadTooLarge]),
        415: experimental.error('The body is not sent as Content-Type: application/json.', [ErrorCode.unsupportedMediaType]),
        422: experimental.error('The Idempotency-Key was already used with another request (another pet, delta or reason). Nothing was written.', [
          ErrorCode.idempotencyKeyReused,
        ]),
        429: experimental.rateLimited,
        500: experimental.internal,
        503: experimental.unavailable,
      },
    }),
  );

  const deprecated = answersOf(headers, DEPRECATION_HEADERS);
  registry.registerPath(
    operation('getPetById', {
      tags: ['Pets'],
      summary: 'Find a pet by id (deprecated)',
      description: `Returns what the service knows of the pet: its id and status. **Deprecated**: every answer of the function carries \`Deprecation\`, \`Sunset\` and a \`Link\` to ${GET_PET_BY_ID_DEPRECATION_NOTICE}; after the Sunset date the operation may stop answering.`,
      deprecated: true,
      request: { params: petIdParameter },
      responses: {
        200: deprecated.success('The pet.', Pet),
        400: deprecated.error(invalidPetId, [ErrorCode.invalidPetId]),
        401: deprecated.unauthorized,
        404: deprecated.error('The inventory has no entry for petId.', [ErrorCode.petNotFound]),
        429: deprecated.rateLimited,
        500: deprecated.internal,
        503: deprecated.unavailable,
      },
    }),
  );

  const limits = Object.entries(PLAN_LIMITS)
    .map(([plan, { perMinute, perDay }]) => `${plan} ${perMinute}/min and ${perDay}/day`)
    .join('; ');
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Pet Store Inventory API',
      version: API_VERSION,
      description: [
        'Stock levels of the pets in the store. Every operation needs an API key sent as `Authorization: Bearer <API_KEY>`.',
        `**Limits** per key and plan: ${limits}; enterprise limits are agreed per key. Every answer to an authenticated request carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`. Over the limit the answer is 429 with \`Retry-After\`: wait that long, then back off exponentially; a key that keeps sending after 429s is banned for a while.`,
        '**Errors** are JSON `{code, message, status}` (schema `Error`); each response below lists its codes. A path or method that is not listed answers 404 `ROUTE_NOT_FOUND`.',
        '**Integers**: petId is an int64 and may exceed 2^53; parse it as a big integer.',
        '**Versioning**: `v1` is the last path segment of every server. `updateInventory` and `adjustInventory` are experimental (`x-experimental`, `X-API-Stability`); `getPetById` is deprecated (`Deprecation`, `Sunset`, `Link`).',
        '**Servers**: the hosts are placeholders (the `.example` domain); replace `host` with the stage\'s custom domain or its execute-api host.',
      ].join('\n\n'),
    },
    externalDocs: { description: 'API documentation, deprecations and sunsets', url: API_DOCUMENTATION_URL },
    servers: [
      { url: 'https://{host}/v1', description: 'Production (placeholder host)', variables: { host: { default: 'api.petstore.example' } } },
      { url: 'https://{host}/v1', description: 'Staging (placeholder host)', variables: { host: { default: 'staging.api.petstore.example' } } },
    ],
    tags: [
      { name: 'Store', description: 'Store operations: the inventory.' },
      { name: 'Pets', description: 'Pet operations.' },
    ],
    security: [{ [BEARER]: [] }],
  });
}

/** The text of openapi.json: what `npm run openapi` writes and the local server serves. */
export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
