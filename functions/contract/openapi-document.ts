import { OpenAPIRegistry, OpenApiGeneratorV31, zodToOpenAPIRegistry, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ErrorCode } from '../domain/errors.ts';
import { PLAN_LIMITS } from '../domain/plans.ts';
import { ErrorBody, InventoryItem, InventoryUpdate, MAX_QUANTITY, Pet, PetId, PetStatus, Quantity } from '../domain/schemas.ts';
import { API_DOCUMENTATION_URL, GET_PET_DEPRECATION_NOTICE, getPetDeprecation } from '../domain/versioning.ts';
import { CONTENT_ENCODINGS } from '../http/content-encoding.ts';
import { MAX_BODY_BYTES } from '../http/json-body.ts';
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
    description: 'The new stock count: an absolute value, not a change, so sending it twice has the effect of sending it once.',
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
  | 'X-RateLimit-Limit'
  | 'X-RateLimit-Remaining'
  | 'X-RateLimit-Reset'
  | 'Retry-After'
  | 'X-API-Stability'
  | 'Deprecation'
  | 'Sunset'
  | 'Link'
  | 'Vary'
  | 'Content-Encoding';
type HeaderObject = { description: string; required?: boolean; schema: Record<string, unknown> };
type ResponseHeaders = Record<string, HeaderObject | { $ref: string }>;

const RATE_LIMIT_HEADERS: readonly HeaderName[] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
const DEPRECATION_HEADERS: readonly HeaderName[] = ['Deprecation', 'Sunset', 'Link'];
const HTTP_DATE = '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$';

function headerDefinitions(): Record<HeaderName, HeaderObject> {
  const integer = (minimum: number) => ({ type: 'integer', minimum });
  const defaults = deprecationHeaders(getPetDeprecation());
  return {
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
    Vary: {
      description: 'The answer depends on Accept-Encoding (it is compressed when the client accepts it).',
      schema: { type: 'string', enum: ['Accept-Encoding'] },
    },
    'Content-Encoding': {
      description: 'The coding of the body, chosen from the request\'s Accept-Encoding (br or gzip); absent when the body is not compressed.',
      schema: { type: 'string', enum: [...CONTENT_ENCODINGS] },
    },
  };
}

function codesSentence(codes: readonly ErrorCode[]): string {
  return `Codes: ${codes.map((code) => `\`${code}\``).join(', ')}.`;
}

/** Headers no answer always carries: they are stated where they may occur, never as components. */
const NEVER_REQUIRED: readonly HeaderName[] = ['Content-Encoding'];

/** Every header in components/headers (always sent where listed); `optional` restates one for answers that may lack it. */
function registerHeaders(registry: OpenAPIRegistry) {
  const definitions = headerDefinitions();
  const refs = Object.fromEntries(
    Object.entries(definitions)
      .filter(([name]) => !NEVER_REQUIRED.includes(name as HeaderName))
      .map(([name, header]) => [name, registry.registerComponent('headers', name, { ...header, required: true }).ref]),
  ) as Record<HeaderName, { $ref: string }>;
  return {
    required: (names: readonly HeaderName[]): ResponseHeaders => Object.fromEntries(names.map((name) => [name, refs[name]])),
    /** Headers an answer may lack: `why` says when (by default, when API Gateway answered without reaching the function). */
    optional: (names: readonly HeaderName[], why = 'Absent when API Gateway answered without reaching the function.'): ResponseHeaders =>
      Object.fromEntries(names.map((name) => [name, { ...definitions[name], required: false, description: `${definitions[name].description} ${why}`.trim() }])),
  };
}

/**
 * The answers of one operation, by who gives them. The function answers after the plan limits
 * counted the request: its answers carry the X-RateLimit-* headers and the operation's own
 * signals (stability, deprecation). API Gateway answers 401 before the key is known, and may
 * answer 500 or 503 on its own (function unreachable, authorizer failing): there those headers
 * are absent or optional.
 */
function answersOf({ required, optional }: ReturnType<typeof registerHeaders>, signals: readonly HeaderName[]) {
  const fromFunction = [...RATE_LIMIT_HEADERS, ...signals];
  const error = (description: string, codes: readonly ErrorCode[], headers?: ResponseHeaders): ResponseConfig => ({
    description: `${description} ${codesSentence(codes)}`,
    ...(headers ? { headers } : {}),
    content: { 'application/json': { schema: ErrorBody } },
  });
  return {
    success: (description: string, schema: z.ZodType, optionalHeaders: readonly HeaderName[] = []): ResponseConfig => ({
      description,
      headers: { ...required(fromFunction), ...optional(optionalHeaders, '') },
      content: { 'application/json': { schema } },
    }),
    error: (description: string, codes: readonly ErrorCode[]) => error(description, codes, required(fromFunction)),
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

  const inventory = answersOf(headers, ['Vary']);
  registry.registerPath(
    operation('listInventory', {
      tags: ['Store'],
      summary: 'List the stock level of every pet',
      description:
        'One entry per pet, sorted by petId, each pet once. The answer is streamed: the status and headers come first, then the array in chunks as the inventory is read, compressed when Accept-Encoding asks for br or gzip. A failure after the answer has begun cannot change its status: the transfer breaks off and the body ends without its closing bracket, so it is never a valid shorter array. Treat a broken transfer or a body that is not valid JSON as a failed call and retry it. A pet updated during the listing appears once, with its old or its new quantity.',
      responses: {
        200: inventory.success('Every inventory entry, sorted by petId.', z.array(InventoryItem), ['Content-Encoding']),
        401: inventory.unauthorized,
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
        'Sets `quantity` of an existing entry and returns the entry; `status` is left as it is. **Experimental**: the request shape may change before the operation becomes stable; every answer of the function says so in `X-API-Stability: experimental`. The quantity is absolute, so the call is idempotent and safe to retry.',
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
        413: experimental.error(`The body is larger than ${MAX_BODY_BYTES} bytes.`, [ErrorCode.payloadTooLarge]),
        415: experimental.error('The body is not sent as Content-Type: application/json.', [ErrorCode.unsupportedMediaType]),
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
      description: `Returns what the service knows of the pet: its id and status. **Deprecated**: every answer of the function carries \`Deprecation\`, \`Sunset\` and a \`Link\` to ${GET_PET_DEPRECATION_NOTICE}; after the Sunset date the operation may stop answering.`,
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
        '**Versioning**: `v1` is the last path segment of every server. `updateInventory` is experimental (`x-experimental`, `X-API-Stability`); `getPetById` is deprecated (`Deprecation`, `Sunset`, `Link`).',
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
