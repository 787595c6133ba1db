import { OpenAPIRegistry, OpenApiGeneratorV31, zodToOpenAPIRegistry, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ErrorCode } from '../functions/domain/errors.ts';
import { ERROR_STATUSES, RETRY_AFTER_HEADER } from '../functions/http/error-statuses.ts';
import { PLAN_LIMITS } from '../functions/domain/plans.ts';
import { IDEMPOTENCY_WINDOW_SECONDS } from '../functions/domain/idempotent-writes.ts';
import {
  INVENTORY_CHANGED,
  INVENTORY_LOW_STOCK,
  INVENTORY_RESTOCKED,
  MAX_BATCH_CHANGES,
  MAX_QUANTITY,
} from '../functions/domain/vocabulary.ts';
import { FAILED_AUTHENTICATIONS_POLICY } from '../functions/domain/failed-authentications.ts';
import {
  RATE_LIMIT_HEADER,
  RATE_LIMIT_LIMIT_HEADER,
  RATE_LIMIT_POLICY_HEADER,
  RATE_LIMIT_REMAINING_HEADER,
  RATE_LIMIT_RESET_HEADER,
} from '../functions/http/rate-limit-headers.ts';
import {
  AdjustedInventoryItems,
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
  StockAlertData,
  PetAdjustment,
  PetId,
  PetStatus,
  Quantity,
} from '../functions/domain/schemas.ts';
import { REPLAYED_HEADER } from '../functions/http/idempotent-answers.ts';
import { CHANGES_PAGE_LIMIT } from '../functions/domain/inventory-history.ts';
import { API_DOCUMENTATION_URL, GET_PET_BY_ID_DEPRECATION_NOTICE, getPetByIdDeprecation } from '../functions/domain/lifecycle.ts';
import { CONTENT_ENCODINGS } from '../functions/http/content-encoding.ts';
import { MAX_IF_MATCH_TAGS } from '../functions/http/entity-tags.ts';
import { IDEMPOTENCY_KEY_FIELD_PATTERN, IDEMPOTENCY_KEY_HEADER } from '../functions/http/idempotency-key.ts';
import { MAX_BATCH_BODY_BYTES, MAX_BODY_BYTES } from '../functions/http/json-body.ts';
import { REQUEST_ID_HEADER } from '../functions/http/request-context.ts';
import { deprecationHeaders } from '../functions/http/lifecycle-headers.ts';
import { apiRoutes, type ApiRoute, type OperationId } from '../functions/routes.ts';
import {
  API_KEY_VARIABLE,
  curlCommand,
  ERROR_CODES,
  errorExample,
  LOW_STOCK_WEBHOOK_EXAMPLE,
  OPERATION_EXAMPLES,
  WEBHOOK_EXAMPLE,
} from './examples.ts';
import { WEBHOOK_RETRY_POLICY } from '../functions/domain/webhook-delivery.ts';

/**
 * The published contract, generated from the zod schemas the handlers validate with: the
 * schemas are annotated, never restated, so a change to a schema changes openapi.json (and
 * `npm run openapi:check` fails until it is regenerated). Paths and methods come from routes.ts.
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
  annotate(InventoryItem, 'InventoryItem', { description: 'The stock level of one pet.' });
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
      'A change of one pet with its petId: an entry of the change feed, the `data` of an `inventory.changed` webhook and the `detail` of its EventBridge event on AWS, all alike. `(petId, version)` names it: deduplicate by it.',
  });
  annotate(ChangeFeedPage, 'ChangeFeedPage', {
    description:
      "A page of the change feed, in the feed's one order; `nextCursor` is always a cursor (on an empty page, the one sent), so a poller resumes from it for ever.",
  });
  annotate(InventoryChangedEvent, 'InventoryChangedEvent', {
    description:
      "The body of an `inventory.changed` webhook, shaped as the Standard Webhooks specification has it: `timestamp` is the change's `occurredAt`, so every attempt sends the same bytes.",
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
  annotate(PetAdjustment, 'PetAdjustment', {
    description: "One entry of a batch: a relative change of one pet's stock, with the same rules as a single adjustment.",
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

type HeaderName =
  | typeof REQUEST_ID_HEADER
  | typeof RATE_LIMIT_LIMIT_HEADER
  | typeof RATE_LIMIT_REMAINING_HEADER
  | typeof RATE_LIMIT_RESET_HEADER
  | typeof RATE_LIMIT_POLICY_HEADER
  | typeof RATE_LIMIT_HEADER
  | typeof RETRY_AFTER_HEADER
  | 'X-API-Stability'
  | 'Deprecation'
  | 'Sunset'
  | 'Link'
  | 'Vary'
  | 'Content-Encoding'
  | 'ETag'
  | typeof REPLAYED_HEADER;
/** Headers that every answer of the function carries (or, restated as optional, may carry). */
type SignalHeader = Exclude<HeaderName, typeof REPLAYED_HEADER>;
type HeaderObject = { description: string; required?: boolean; schema: Record<string, unknown> };
type ResponseHeaders = Record<string, HeaderObject | { $ref: string }>;

const RATE_LIMIT_HEADERS: readonly SignalHeader[] = [
  RATE_LIMIT_LIMIT_HEADER,
  RATE_LIMIT_REMAINING_HEADER,
  RATE_LIMIT_RESET_HEADER,
  RATE_LIMIT_POLICY_HEADER,
  RATE_LIMIT_HEADER,
];
/** The structured fields' text: draft-ietf-httpapi-ratelimit-headers-10 (docs/rate-limit-fields.md). */
const RATE_LIMIT_DRAFT = 'draft-ietf-httpapi-ratelimit-headers-10';
const DEPRECATION_HEADERS: readonly SignalHeader[] = ['Deprecation', 'Sunset', 'Link'];
const HTTP_DATE =
  '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$';

function headerDefinitions(petsSunset: Date | undefined): Record<HeaderName, HeaderObject> {
  const integer = (minimum: number) => ({ type: 'integer', minimum });
  const defaults = deprecationHeaders(getPetByIdDeprecation(petsSunset));
  return {
    [REQUEST_ID_HEADER]: {
      description:
        "The request's id, on every answer (API Gateway's own answers too): quote it when reporting a failed call; it finds the request in the service's access and function logs.",
      schema: { type: 'string', minLength: 1 },
    },
    [RATE_LIMIT_LIMIT_HEADER]: {
      description: 'Requests allowed in the window closest to exhaustion (the minute or the UTC day).',
      schema: integer(1),
    },
    [RATE_LIMIT_REMAINING_HEADER]: { description: 'Requests left in that window.', schema: integer(0) },
    [RATE_LIMIT_RESET_HEADER]: { description: 'Unix time (seconds) at which that window resets.', schema: integer(0) },
    [RATE_LIMIT_POLICY_HEADER]: {
      description: `${RATE_LIMIT_DRAFT}: the key's plan as a structured-field List, one item per window: its name (\`"minute"\`, \`"day"\`), \`q\` the requests it allows, \`w\` its length in seconds. The same on every answer to the key.`,
      schema: { type: 'string', minLength: 1, examples: ['"minute";q=60;w=60, "day";q=1000;w=86400'] },
    },
    [RATE_LIMIT_HEADER]: {
      description: `${RATE_LIMIT_DRAFT}: the state of each window of RateLimit-Policy: \`r\` the requests left, \`t\` the seconds until it resets. For the window X-RateLimit-* describe, \`r\` is X-RateLimit-Remaining and \`t\` is X-RateLimit-Reset less the time of the answer.`,
      schema: { type: 'string', minLength: 1, examples: ['"minute";r=59;t=41, "day";r=998;t=49241'] },
    },
    [RETRY_AFTER_HEADER]: { description: 'Seconds to wait before retrying.', schema: integer(1) },
    'X-API-Stability': {
      description: 'The operation is experimental: its request shape may change before it becomes stable (SPEC section 9).',
      schema: { type: 'string', enum: ['experimental'] },
    },
    Deprecation: {
      description: 'RFC 9745: the operation is deprecated since this moment (a structured-field date: `@` and Unix seconds).',
      schema: { type: 'string', pattern: '^@-?[0-9]+$', examples: [defaults.Deprecation] },
    },
    Sunset: {
      description: `RFC 8594: an HTTP-date after which the operation may stop answering. Set per stage; here ${defaults.Sunset}.`,
      schema: { type: 'string', pattern: HTTP_DATE, examples: [defaults.Sunset] },
    },
    Link: {
      description: 'Where the deprecation and the sunset are explained (rel="deprecation", rel="sunset").',
      schema: { type: 'string', examples: [defaults.Link] },
    },
    [REPLAYED_HEADER]: {
      description:
        'Present when the answer repeats the outcome of an earlier request with the same Idempotency-Key: nothing was applied this time.',
      schema: { type: 'string', enum: ['true'] },
    },
    ETag: {
      description:
        "The entry's version, as a strong entity tag: the number of changes in its history (its last entry's `version`). Send it in If-Match to update only that version.",
      schema: { type: 'string', pattern: '^"[0-9]+"$', examples: ['"7"'] },
    },
    Vary: {
      description: 'The answer depends on Accept-Encoding (it is compressed when the client accepts it).',
      schema: { type: 'string', enum: ['Accept-Encoding'] },
    },
    'Content-Encoding': {
      description:
        "The coding of the body, chosen from the request's Accept-Encoding (br or gzip); absent when the body is not compressed.",
      schema: { type: 'string', enum: [...CONTENT_ENCODINGS] },
    },
  };
}

function codesSentence(codes: readonly ErrorCode[]): string {
  return `Codes: ${codes.map((code) => `\`${code}\``).join(', ')}.`;
}

/** Headers no answer always carries: they are stated where they may occur, never as components. */
const NEVER_REQUIRED: readonly HeaderName[] = ['Content-Encoding'];

/**
 * Every header in components/headers: sent wherever listed, but Idempotent-Replayed, which an
 * answer carries only when it repeats an earlier one. `optional` restates a header for answers
 * that may lack it.
 */
function registerHeaders(registry: OpenAPIRegistry, petsSunset: Date | undefined) {
  const definitions = headerDefinitions(petsSunset);
  const refs = Object.fromEntries(
    Object.entries(definitions)
      .filter(([name]) => !NEVER_REQUIRED.includes(name as HeaderName))
      .map(([name, header]) => [name, registry.registerComponent('headers', name, { ...header, required: name !== REPLAYED_HEADER }).ref]),
  ) as Record<HeaderName, { $ref: string }>;
  return {
    required: (names: readonly SignalHeader[]): ResponseHeaders => Object.fromEntries(names.map((name) => [name, refs[name]])),
    /** Headers an answer may lack: `why` says when (by default, when API Gateway answered without reaching the function). */
    optional: (names: readonly SignalHeader[], why = 'Absent when API Gateway answered without reaching the function.'): ResponseHeaders =>
      Object.fromEntries(
        names.map((name) => [
          name,
          { ...definitions[name], required: false, description: `${definitions[name].description} ${why}`.trim() },
        ]),
      ),
    /** Idempotent-Replayed, on the answers an adjustment replays. */
    replayed: (): ResponseHeaders => ({ [REPLAYED_HEADER]: refs[REPLAYED_HEADER] }),
  };
}

/** The rate-limit headers of an answer without a valid key: the source address's window of failed authentications. */
function addressWindowHeaders(): ResponseHeaders {
  const integer = (minimum: number) => ({ type: 'integer', minimum });
  return {
    [RATE_LIMIT_LIMIT_HEADER]: {
      description: "Failed authentications the source address may make per minute (the address's window).",
      required: true,
      schema: integer(1),
    },
    [RATE_LIMIT_REMAINING_HEADER]: {
      description: 'Failed authentications left to the address in this minute.',
      required: true,
      schema: integer(0),
    },
    [RATE_LIMIT_RESET_HEADER]: {
      description:
        'Unix time (seconds) at which the minute ends. Absent on AWS from the answer to a request without Authorization, which API Gateway gives from a static template.',
      required: false,
      schema: integer(0),
    },
    [RATE_LIMIT_POLICY_HEADER]: {
      description: `${RATE_LIMIT_DRAFT}: the address's window, \`"${FAILED_AUTHENTICATIONS_POLICY}"\`, \`q\` failed authentications a minute, \`w=60\`.`,
      required: true,
      schema: { type: 'string', minLength: 1, examples: [`"${FAILED_AUTHENTICATIONS_POLICY}";q=60;w=60`] },
    },
    [RATE_LIMIT_HEADER]: {
      description: `${RATE_LIMIT_DRAFT}: the address's window, \`r\` as X-RateLimit-Remaining, \`t\` the seconds until the minute ends (absent where X-RateLimit-Reset is).`,
      required: true,
      schema: { type: 'string', minLength: 1, examples: [`"${FAILED_AUTHENTICATIONS_POLICY}";r=59;t=41`] },
    },
  };
}

/**
 * The answers of one operation, by who gives them. The function answers after the plan limits
 * counted the request: its answers carry the X-RateLimit-* headers and the operation's own
 * signals (stability, deprecation). API Gateway answers 401 before the key is known, and may
 * answer 500 or 503 on its own (function unreachable, authorizer failing): there those headers
 * are absent or optional.
 */
function answersOf({ required, optional, replayed }: ReturnType<typeof registerHeaders>, signals: readonly SignalHeader[]) {
  const fromFunction = [...RATE_LIMIT_HEADERS, ...signals];
  const everyAnswer = required([REQUEST_ID_HEADER]);
  // One example per code, named after it: what the reference lists under each status, which must be the code's.
  const error = (status: number, description: string, codes: readonly ErrorCode[], headers: ResponseHeaders = {}): ResponseConfig => {
    const misplaced = codes.filter((code) => ERROR_STATUSES[code] !== status);
    if (misplaced.length > 0)
      throw new Error(`${misplaced.join(', ')} answer with another status than ${status} (http/error-statuses.ts).`);
    return {
      description: `${description} ${codesSentence(codes)}`,
      headers: { ...everyAnswer, ...headers },
      content: {
        'application/json': {
          schema: ErrorBody,
          examples: Object.fromEntries(codes.map((code) => [code, { summary: ERROR_CODES[code].meaning, value: errorExample(code) }])),
        },
      },
    };
  };
  return {
    success: (
      description: string,
      schema: z.ZodType,
      example: unknown,
      {
        mayReplay = false,
        optionalHeaders = [],
        tagged = false,
      }: { mayReplay?: boolean; optionalHeaders?: readonly SignalHeader[]; tagged?: boolean } = {},
    ): ResponseConfig => ({
      description,
      headers: {
        ...everyAnswer,
        ...required(fromFunction),
        ...(tagged ? required(['ETag']) : {}),
        ...optional(optionalHeaders, ''),
        ...(mayReplay ? replayed() : {}),
      },
      content: { 'application/json': { schema, example } },
    }),
    noContent: (description: string): ResponseConfig => ({ description, headers: { ...everyAnswer, ...required(fromFunction) } }),
    error: (status: number, description: string, codes: readonly ErrorCode[], { mayReplay = false } = {}) =>
      error(status, description, codes, { ...required(fromFunction), ...(mayReplay ? replayed() : {}) }),
    unauthorized: error(
      401,
      "The API key is missing, malformed, unknown or revoked, or the source address has no failed authentications left this minute (X-RateLimit-Remaining 0; no key is looked up until the minute ends). Answered before the key is known: the X-RateLimit-* headers describe the source address's window of failed authentications and the operation's signals are absent. A malformed, unknown or revoked key is counted in the window; API Gateway reuses its answer for the same Authorization from the same address for a minute (the authorizer's cache), values included, without counting it again. A request without Authorization is answered by API Gateway itself, counted nowhere, from a static template: on AWS its X-RateLimit-Reset and RateLimit's `t` are absent.",
      [ErrorCode.unauthorized],
      addressWindowHeaders(),
    ),
    rateLimited: error(
      429,
      'Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff.',
      [ErrorCode.rateLimited, ErrorCode.quotaExceeded, ErrorCode.keyBanned],
      {
        ...required([RATE_LIMIT_LIMIT_HEADER, RATE_LIMIT_REMAINING_HEADER, RATE_LIMIT_HEADER, RETRY_AFTER_HEADER]),
        ...optional([RATE_LIMIT_RESET_HEADER, RATE_LIMIT_POLICY_HEADER, ...signals]),
      },
    ),
    internal: error(500, 'An unexpected error; the detail is in the service logs only.', [ErrorCode.internal], optional(fromFunction)),
    unavailable: error(
      503,
      'The data store or the authorizer is temporarily unavailable. Retry after Retry-After.',
      [ErrorCode.serviceUnavailable],
      {
        ...optional(fromFunction),
        ...required([RETRY_AFTER_HEADER]),
      },
    ),
  };
}

function routeFor(operationId: string): ApiRoute {
  const route = apiRoutes.find((candidate) => candidate.operationId === operationId);
  if (!route) throw new Error(`routes.ts has no operation ${operationId}`);
  return route;
}

/**
 * routes.ts is what is deployed; the document takes method and path from it so the two cannot
 * disagree. Each operation carries the curl line of its example (x-codeSamples), generated here.
 */
function operation(
  serverUrl: string,
  operationId: OperationId,
  rest: Omit<Operation, 'method' | 'path' | 'operationId' | 'security'>,
): Operation {
  const { method, resource } = routeFor(operationId);
  return {
    ...rest,
    method: method.toLowerCase() as Operation['method'],
    path: resource,
    operationId,
    security: [{ [BEARER]: [] }],
    'x-codeSamples': [{ lang: 'Shell', label: 'curl', source: curlCommand(serverUrl, operationId) }],
  };
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

const seconds = (milliseconds: number) => milliseconds / 1_000;

/** The Standard Webhooks headers of an event's POST, the id's form stated. */
function webhookHeadersSchema(
  idForm: string,
  example: { headers: Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> },
) {
  const header = (description: string, value: string) => z.string().meta({ description, example: value });
  return z.object({
    'webhook-id': header(
      `The event's id, ${idForm}: the same on every attempt, at every endpoint and after a redrive.`,
      example.headers['webhook-id'],
    ),
    'webhook-timestamp': header('When this attempt was sent, in Unix seconds.', example.headers['webhook-timestamp']),
    'webhook-signature': header(
      '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the secret.',
      example.headers['webhook-signature'],
    ),
  });
}

/** What every event's delivery promises, and what a receiver's answers mean. */
function webhookDelivery() {
  const policy = WEBHOOK_RETRY_POLICY;
  return {
    description: [
      `**At least once**: any answer but 2xx, a refused connection or no answer within ${seconds(policy.attemptTimeoutMs)} s is retried after ${seconds(policy.firstRetryDelayMs)} s, doubling, at most ${seconds(policy.maxRetryDelayMs)} s apart, for ${policy.retryForMs / 3_600_000} hours; then the delivery is dead-lettered, kept for an operator to send again. Redirects are not followed. Deduplicate by \`webhook-id\`.`,
      "**In order per pet**: a pet's events reach each endpoint in the order of its changes, an alert right after the change that raised it; a redriven dead letter arrives after the later ones, so keep the highest version seen.",
      '**Verify before trusting**: `webhook-signature` is `v1,` and the base64 HMAC-SHA256 of `webhook-id`, `.`, `webhook-timestamp`, `.` and the raw body, under the secret (its base64 part after `whsec_`, decoded). Refuse a timestamp more than five minutes from your clock.',
      "**Which events**: an endpoint takes every type unless its URL is followed by the types it wants (`WEBHOOK_URL` of `npm start`, the stage's `webhookUrls` on AWS: `https://example.com/reorder inventory.low_stock inventory.restocked`).",
    ],
    responses: {
      '2XX': { description: 'Delivered: the event is not sent to this endpoint again (unless an operator redrives it).' },
      default: {
        description: `Any other answer, like a refused connection or no answer within ${seconds(policy.attemptTimeoutMs)} s, is a failed attempt: the event is sent again later, with the same \`webhook-id\` and body.`,
      },
    },
  };
}

/**
 * The event a server POSTs to each of its webhook URLs for every change, as the Standard Webhooks
 * specification has it (functions/domain/webhooks.ts signs it): a receiver verifies it with any of
 * that specification's libraries. The answers are the receiver's, and what the sender does with them.
 */
function inventoryChangedWebhook(): Operation {
  const delivery = webhookDelivery();
  return {
    method: 'post',
    path: INVENTORY_CHANGED,
    operationId: 'inventoryChanged',
    tags: ['Store'],
    summary: 'A change of stock, pushed to your endpoint (experimental)',
    description: [
      "Every change recorded in a pet's history is POSTed as JSON to each webhook URL of the server that takes `inventory.changed`, signed with its secret. Its `webhook-id` is also `petId` and `version`: deduplicate by either.",
      ...delivery.description,
    ].join('\n\n'),
    'x-experimental': true,
    security: [],
    request: {
      headers: webhookHeadersSchema('`evt_inventory_<petId>_<version>`', WEBHOOK_EXAMPLE),
      body: {
        required: true,
        content: { 'application/json': { schema: InventoryChangedEvent, example: WEBHOOK_EXAMPLE.body } },
      },
    },
    responses: delivery.responses,
  };
}

/** A low-stock alert's webhook: `inventory.low_stock` or `inventory.restocked`. */
function stockAlertWebhook(type: typeof INVENTORY_LOW_STOCK | typeof INVENTORY_RESTOCKED): Operation {
  const delivery = webhookDelivery();
  const low = type === INVENTORY_LOW_STOCK;
  const example = LOW_STOCK_WEBHOOK_EXAMPLE;
  return {
    method: 'post',
    path: type,
    operationId: low ? 'inventoryLowStock' : 'inventoryRestocked',
    tags: ['Store'],
    summary: low
      ? "A pet's available stock fell below its low-stock threshold (experimental)"
      : "A pet's available stock is back at its low-stock threshold or above (experimental)",
    description: [
      low
        ? "POSTed when an accepted change takes the pet's `available` stock from at least its threshold (`PUT /inventory/{petId}/low-stock-threshold`) to below it: once per crossing, never once per change below it; changes made at once that cross once raise one. Setting a threshold is not a change and raises none: `GET /inventory?lowStock=true` lists the pets below theirs."
        : "POSTed when an accepted change takes the pet's `available` stock from below its threshold back to at least it: once per crossing.",
      "`data.version` is the change that crossed: its `inventory.changed` comes first, and it is in the pet's history. Delivered, signed and retried as `inventory.changed` is (see it); an endpoint takes alerts only if it names their types or none.",
    ].join('\n\n'),
    'x-experimental': true,
    security: [],
    request: {
      headers: webhookHeadersSchema(`\`evt_inventory_<petId>_<version>_${low ? 'low_stock' : 'restocked'}\``, example),
      body: {
        required: true,
        content: {
          'application/json': {
            schema: low ? InventoryLowStockEvent : InventoryRestockedEvent,
            ...(low ? { example: example.body } : { example: { ...example.body, type: INVENTORY_RESTOCKED } }),
          },
        },
      },
    },
    responses: delivery.responses,
  };
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
  const petIdParameter = z.object({ petId: PetId });
  const changesPageLimitParameter = z
    .int()
    .min(CHANGES_PAGE_LIMIT.min)
    .max(CHANGES_PAGE_LIMIT.max)
    .optional()
    .meta({
      description: `Entries per page, from ${CHANGES_PAGE_LIMIT.min} to ${CHANGES_PAGE_LIMIT.max}; ${CHANGES_PAGE_LIMIT.default} by default.`,
    });
  const invalidPetId = `petId is not a canonical integer from ${PetId.minValue} to ${PetId.maxValue} (no sign, leading zeros or exponent).`;

  const listing = answersOf(headers, ['Vary']);
  registry.registerPath(
    operation(exampleServer, 'listInventory', {
      tags: ['Store'],
      summary: 'List the stock level of every pet',
      description:
        'One entry per pet, sorted by petId, each pet once; with `lowStock=true`, the reorder report: only the pets whose available stock is below their low-stock threshold (`putLowStockThreshold`), sorted and streamed alike. The answer is streamed: the status and headers come first, then the array in chunks as the inventory is read, compressed when Accept-Encoding asks for br or gzip. A failure after the answer has begun cannot change its status: the transfer breaks off and the body ends without its closing bracket, so it is never a valid shorter array. Treat a broken transfer or a body that is not valid JSON as a failed call and retry it. A pet updated during the listing appears once, with its old or its new quantity.',
      request: {
        query: z.object({
          lowStock: z.enum(['true', 'false']).optional().meta({
            description: '`true`: only the pets whose available stock is below their low-stock threshold. `false` or absent: every pet.',
          }),
        }),
      },
      responses: {
        200: listing.success(
          'Every inventory entry, sorted by petId.',
          z.array(InventoryItem),
          OPERATION_EXAMPLES.listInventory.answer.body,
          {
            optionalHeaders: ['Content-Encoding'],
          },
        ),
        400: listing.error(400, '`lowStock` is neither `true` nor `false`.', [ErrorCode.invalidQuery]),
        401: listing.unauthorized,
        429: listing.rateLimited,
        500: listing.internal,
        503: listing.unavailable,
      },
    }),
  );

  const inventory = answersOf(headers, []);
  registry.registerPath(
    operation(exampleServer, 'getInventoryItem', {
      tags: ['Store'],
      summary: 'Read the stock level of one pet',
      description:
        'The entry of one pet, read strongly consistent: it reflects every write answered before the read, so a compare-and-set built on it does not fail on a stale count.',
      request: { params: petIdParameter },
      responses: {
        200: inventory.success('The entry, its version in ETag.', InventoryItem, OPERATION_EXAMPLES.getInventoryItem.answer.body, {
          tagged: true,
        }),
        400: inventory.error(400, invalidPetId, [ErrorCode.invalidPetId]),
        401: inventory.unauthorized,
        404: inventory.error(404, 'No inventory entry exists for petId.', [ErrorCode.petNotFound]),
        429: inventory.rateLimited,
        500: inventory.internal,
        503: inventory.unavailable,
      },
    }),
  );

  const experimental = answersOf(headers, ['X-API-Stability']);
  const idempotencyKeyField = z
    .string()
    .regex(IDEMPOTENCY_KEY_FIELD_PATTERN)
    .meta({
      description: `1 to 255 visible ASCII characters, unique per change (a UUID), sent again on every retry of it. Remembered for ${IDEMPOTENCY_WINDOW_SECONDS / 3600} hours per API key. Bare (\`8e03978e-40d5-43e8-bc93-6894a57f9324\`) or as draft-ietf-httpapi-idempotency-key-header-07 writes it, a structured-field string (\`"8e03978e-40d5-43e8-bc93-6894a57f9324"\`, \`"\` and \`\\\` escaped with a backslash): both forms name the same key, so a retry in the other form replays.`,
    });
  const idempotencyKey = z.object({ [IDEMPOTENCY_KEY_HEADER]: idempotencyKeyField });
  registry.registerPath(
    operation(exampleServer, 'updateInventory', {
      tags: ['Store'],
      summary: 'Set the stock count of one pet (experimental)',
      description: [
        'Sets `quantity` of an existing entry and returns the entry; `status` is left as it is. Without `changeFromQuantity` the write is blind: the last writer wins. With it, the write is a compare-and-set against the count the client read (`getInventoryItem`), so a change made in between is never overwritten, even one that left the count at `quantity`. A compare-and-set retried without an `Idempotency-Key` after its answer was lost answers 409 (the count it read is gone): send a key to make the retry safe, or read the entry again before deciding.',
        `**Exactly once with an \`Idempotency-Key\`** (optional here): the same key from the same API key, for the same petId, body and If-Match, within ${IDEMPOTENCY_WINDOW_SECONDS / 3600} hours, answers what the first request answered (200 with its ETag, 404, 409 or 412, with \`${REPLAYED_HEADER}: true\`) and writes nothing, so nothing more in the history either; the same key with another request, or one an adjustment used, answers 422. Concurrent duplicates write once, and each answers the same outcome. 429 and 5xx answers are not remembered: a retry runs afresh. The history entry of a keyed update carries its \`idempotencyKey\`.`,
        '**Experimental**: the request shape may change before the operation becomes stable; every answer of the function says so in `X-API-Stability: experimental`.',
      ].join('\n\n'),
      'x-experimental': true,
      request: {
        params: petIdParameter,
        headers: z.object({
          'If-Match': z
            .string()
            .optional()
            .meta({
              description: `The ETag of the entry as read (a quoted version such as \`"7"\`), a comma-separated list of at most ${MAX_IF_MATCH_TAGS} of them, or \`*\`: the write happens only while the entry is at one of those versions, else 412 and nothing is written. A weak tag never matches. A list sent on several lines is read as one list (RFC 9110); anything else, or a longer list, is 400 \`BAD_REQUEST\`, and nothing is written.`,
            }),
          [IDEMPOTENCY_KEY_HEADER]: idempotencyKeyField.optional(),
        }),
        body: {
          required: true,
          description: `A JSON object of at most ${MAX_BODY_BYTES} bytes.`,
          content: { 'application/json': { schema: InventoryUpdate, example: OPERATION_EXAMPLES.updateInventory.body } },
        },
      },
      responses: {
        200: experimental.success(
          'The entry with its new quantity, its version in ETag.',
          InventoryItem,
          OPERATION_EXAMPLES.updateInventory.answer.body,
          { tagged: true, mayReplay: true },
        ),
        400: experimental.error(
          400,
          `The body is not JSON, lacks \`quantity\` or holds an invalid value, Content-Type is sent more than once, an Idempotency-Key is sent but malformed, If-Match is malformed or names more than ${MAX_IF_MATCH_TAGS} entity tags, or ${invalidPetId}`,
          [ErrorCode.invalidBody, ErrorCode.malformedJson, ErrorCode.badRequest, ErrorCode.idempotencyKeyRequired, ErrorCode.invalidPetId],
        ),
        401: experimental.unauthorized,
        404: experimental.error(404, 'No inventory entry exists for petId.', [ErrorCode.petNotFound], { mayReplay: true }),
        409: experimental.error(
          409,
          '`changeFromQuantity` was given and the stored quantity is not it; the message states the stored quantity. Nothing was written.',
          [ErrorCode.quantityChanged],
          { mayReplay: true },
        ),
        412: experimental.error(
          412,
          'If-Match was given and the entry is no longer at that version; the message states its version. Nothing was written.',
          [ErrorCode.preconditionFailed],
          { mayReplay: true },
        ),
        413: experimental.error(413, `The body is larger than ${MAX_BODY_BYTES} bytes.`, [ErrorCode.payloadTooLarge]),
        415: experimental.error(415, 'The body is not sent as Content-Type: application/json.', [ErrorCode.unsupportedMediaType]),
        422: experimental.error(
          422,
          'The Idempotency-Key was already used with another request (another pet, quantity, changeFromQuantity or If-Match, or an adjustment). Nothing was written.',
          [ErrorCode.idempotencyKeyReused],
        ),
        429: experimental.rateLimited,
        500: experimental.internal,
        503: experimental.unavailable,
      },
    }),
  );

  registry.registerPath(
    operation(exampleServer, 'adjustInventory', {
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
        body: {
          required: true,
          description: `A JSON object of at most ${MAX_BODY_BYTES} bytes.`,
          content: { 'application/json': { schema: InventoryAdjustment } },
        },
      },
      responses: {
        200: experimental.success(
          'The entry with its new quantity, its version in ETag.',
          InventoryItem,
          OPERATION_EXAMPLES.adjustInventory.answer.body,
          { mayReplay: true, tagged: true },
        ),
        400: experimental.error(
          400,
          `The body is not JSON, lacks \`delta\` or \`reason\` or holds an invalid value, the Idempotency-Key header is missing or malformed, Idempotency-Key or Content-Type is sent more than once, or ${invalidPetId}`,
          [ErrorCode.invalidBody, ErrorCode.malformedJson, ErrorCode.idempotencyKeyRequired, ErrorCode.badRequest, ErrorCode.invalidPetId],
        ),
        401: experimental.unauthorized,
        404: experimental.error(404, 'No inventory entry exists for petId. Nothing was written.', [ErrorCode.petNotFound], {
          mayReplay: true,
        }),
        409: experimental.error(
          409,
          `The delta would take the stock below 0 or above ${MAX_QUANTITY}; the message states the stock. Nothing was written.`,
          [ErrorCode.insufficientStock, ErrorCode.quantityOutOfRange],
          { mayReplay: true },
        ),
        413: experimental.error(413, `The body is larger than ${MAX_BODY_BYTES} bytes.`, [ErrorCode.payloadTooLarge]),
        415: experimental.error(415, 'The body is not sent as Content-Type: application/json.', [ErrorCode.unsupportedMediaType]),
        422: experimental.error(
          422,
          'The Idempotency-Key was already used with another request (another pet, delta or reason). Nothing was written.',
          [ErrorCode.idempotencyKeyReused],
        ),
        429: experimental.rateLimited,
        500: experimental.internal,
        503: experimental.unavailable,
      },
    }),
  );

  registry.registerPath(
    operation(exampleServer, 'adjustInventoryBatch', {
      tags: ['Store'],
      summary: `Change the stock of up to ${MAX_BATCH_CHANGES} pets at once, all or none, exactly once (experimental)`,
      description: [
        `Applies every adjustment of the list, or none: a delivery of fifty kinds of pet, or the corrections of a stock count, in one call. Each entry follows the rules of \`adjustInventory\` (\`delta\` non-zero, the stock kept within 0 and ${MAX_QUANTITY}); each pet appears at most once. The answer lists the entries as stored right after the change, in the order of the adjustments.`,
        `**At most ${MAX_BATCH_CHANGES}**: the batch is one DynamoDB transaction, which takes at most 100 actions: one per adjustment and one for the Idempotency-Key's record, written with them so that no crash or retry applies a batch twice or half.`,
        `**All or none**: when any pet has no entry, 404 names every such pet; otherwise when any adjustment would leave the stock's range, 409 names every pet at fault with its stock (\`${ErrorCode.insufficientStock}\` when any would go below 0, else \`${ErrorCode.quantityOutOfRange}\`). Nothing is written in either case.`,
        `**Exactly once**: as \`adjustInventory\`, per API key and \`Idempotency-Key\` for ${IDEMPOTENCY_WINDOW_SECONDS / 3600} hours. The same list (same pets, deltas, reasons and order) answers what the first request answered, with \`${REPLAYED_HEADER}: true\`; another list, or a key used for a single adjustment, answers 422.`,
        '**One request** against the plan, however many adjustments it holds: the plan limits calls, and a batch is one call of the function, one transaction and one answer.',
        '**Experimental**: the request shape may change before the operation becomes stable; every answer of the function says so in `X-API-Stability: experimental`.',
      ].join('\n\n'),
      'x-experimental': true,
      request: {
        headers: idempotencyKey,
        body: {
          required: true,
          description: `A JSON object of at most ${MAX_BATCH_BODY_BYTES} bytes.`,
          content: { 'application/json': { schema: InventoryAdjustmentBatch, example: OPERATION_EXAMPLES.adjustInventoryBatch.body } },
        },
      },
      responses: {
        200: experimental.success(
          'Every entry with its new quantity, in the order of the adjustments.',
          AdjustedInventoryItems,
          OPERATION_EXAMPLES.adjustInventoryBatch.answer.body,
          { mayReplay: true },
        ),
        400: experimental.error(
          400,
          `The body is not JSON or not a list of 1 to ${MAX_BATCH_CHANGES} adjustments, an entry lacks a field or holds an invalid value (the message names it by its index, as \`adjustments.3.delta\`), a pet appears twice, the Idempotency-Key header is missing or malformed, or Idempotency-Key or Content-Type is sent more than once. Nothing was written.`,
          [ErrorCode.invalidBody, ErrorCode.malformedJson, ErrorCode.idempotencyKeyRequired, ErrorCode.badRequest],
        ),
        401: experimental.unauthorized,
        404: experimental.error(
          404,
          'Some pets have no inventory entry; the message names every one. Nothing was written.',
          [ErrorCode.petNotFound],
          {
            mayReplay: true,
          },
        ),
        409: experimental.error(
          409,
          `Some adjustments would take the stock below 0 or above ${MAX_QUANTITY}; the message names every pet at fault and its stock. Nothing was written.`,
          [ErrorCode.insufficientStock, ErrorCode.quantityOutOfRange],
          { mayReplay: true },
        ),
        413: experimental.error(413, `The body is larger than ${MAX_BATCH_BODY_BYTES} bytes.`, [ErrorCode.payloadTooLarge]),
        415: experimental.error(415, 'The body is not sent as Content-Type: application/json.', [ErrorCode.unsupportedMediaType]),
        422: experimental.error(
          422,
          'The Idempotency-Key was already used with another request (other adjustments, another order, or a single adjustment). Nothing was written.',
          [ErrorCode.idempotencyKeyReused],
        ),
        429: experimental.rateLimited,
        500: experimental.internal,
        503: experimental.unavailable,
      },
    }),
  );

  registry.registerPath(
    operation(exampleServer, 'listInventoryChanges', {
      tags: ['Store'],
      summary: "List a pet's changes of stock (experimental)",
      description: [
        "Every change of the pet's entry, oldest first: each write that changed it (a PATCH, an adjustment, the operators' import, the seed) is one entry, with consecutive versions. A request that changed nothing (a refusal, a replay, a PATCH to the quantity already stored) has none.",
        "An answered change is in its history within about a second (it is recorded from the table's change stream, after the answer). Entries are kept for the stage's retention (13 months by default): a history whose oldest entries expired starts at a later version.",
        "Page with `limit` and the opaque `nextCursor` of the previous page; the last page has `nextCursor: null`. **Experimental**: the answer's shape may change before the operation becomes stable.",
      ].join('\n\n'),
      'x-experimental': true,
      request: {
        params: petIdParameter,
        query: z.object({
          limit: changesPageLimitParameter,
          cursor: z.string().optional().meta({
            description: "The `nextCursor` of the previous page of this pet's history, as it was returned.",
          }),
        }),
      },
      responses: {
        200: experimental.success("A page of the pet's history.", ChangesPage, OPERATION_EXAMPLES.listInventoryChanges.answer.body),
        400: experimental.error(
          400,
          `\`limit\` is not an integer from 1 to 1000, \`cursor\` is not one this operation returned for this pet (another pet's, or past the entry's version), or ${invalidPetId}`,
          [ErrorCode.invalidQuery, ErrorCode.invalidPetId],
        ),
        401: experimental.unauthorized,
        404: experimental.error(404, 'No inventory entry exists for petId.', [ErrorCode.petNotFound]),
        429: experimental.rateLimited,
        500: experimental.internal,
        503: experimental.unavailable,
      },
    }),
  );

  registry.registerPath(
    operation(exampleServer, 'listInventoryChangeFeed', {
      tags: ['Store'],
      summary: "Follow every pet's changes of stock (experimental)",
      description: [
        "Every change of every pet, in one order, for a system that catches up on what it missed (a till, a warehouse, a web shop): the entries of the pets' histories, each with its `petId`. Without `cursor` the feed starts at the oldest retained change (the history's retention, 13 months by default).",
        "Resume from the page's `nextCursor`, which is always a cursor: on an empty page it is the one sent, so a poller keeps asking from it for ever. **Nothing is missed, nothing repeated**: the feed numbers its entries in the same transaction that stores them, so no change can appear behind a cursor already handed out, however many pets change at once. An answered change is in the feed within about a second.",
        "**Experimental**: the answer's shape may change before the operation becomes stable. Every change is also pushed as the `inventory.changed` webhook (see `webhooks`).",
      ].join('\n\n'),
      'x-experimental': true,
      request: {
        query: z.object({
          limit: changesPageLimitParameter,
          cursor: z.string().optional().meta({
            description: 'The `nextCursor` of a page, as it was returned; without it, the oldest retained change.',
          }),
        }),
      },
      responses: {
        200: experimental.success(
          "A page of the feed: the changes after the cursor, in the feed's order.",
          ChangeFeedPage,
          OPERATION_EXAMPLES.listInventoryChangeFeed.answer.body,
        ),
        400: experimental.error(
          400,
          '`limit` is not an integer from 1 to 1000, or `cursor` is not one this operation returned (one ahead of every change in the feed, for one).',
          [ErrorCode.invalidQuery],
        ),
        401: experimental.unauthorized,
        429: experimental.rateLimited,
        500: experimental.internal,
        503: experimental.unavailable,
      },
    }),
  );

  registry.registerWebhook(inventoryChangedWebhook());
  registry.registerWebhook(stockAlertWebhook(INVENTORY_LOW_STOCK));
  registry.registerWebhook(stockAlertWebhook(INVENTORY_RESTOCKED));

  const thresholdDescription =
    "A pet's low-stock threshold: below this many `available`, the pet is low on stock. An accepted change that crosses it raises the `inventory.low_stock` or `inventory.restocked` webhook (see `webhooks`); setting, reading or removing it changes no stock, no version and no history. **Experimental**: the shape may change before the operation becomes stable.";
  registry.registerPath(
    operation(exampleServer, 'putLowStockThreshold', {
      tags: ['Store'],
      summary: "Set a pet's low-stock threshold (experimental)",
      description: `${thresholdDescription} Setting it again replaces it; a pet already below the threshold raises no alert (alerts come from changes of stock), and is listed by \`GET /inventory?lowStock=true\`.`,
      'x-experimental': true,
      request: {
        params: petIdParameter,
        body: {
          required: true,
          description: `A JSON object of at most ${MAX_BODY_BYTES} bytes.`,
          content: { 'application/json': { schema: LowStockThresholdUpdate, example: OPERATION_EXAMPLES.putLowStockThreshold.body } },
        },
      },
      responses: {
        200: experimental.success('The threshold as set.', LowStockThreshold, OPERATION_EXAMPLES.putLowStockThreshold.answer.body),
        400: experimental.error(
          400,
          `The body is not JSON, lacks \`threshold\` or holds a value that is not an integer from 0 to ${MAX_QUANTITY}, or ${invalidPetId}`,
          [ErrorCode.invalidBody, ErrorCode.malformedJson, ErrorCode.badRequest, ErrorCode.invalidPetId],
        ),
        401: experimental.unauthorized,
        404: experimental.error(404, 'No inventory entry exists for petId. Nothing was written.', [ErrorCode.petNotFound]),
        413: experimental.error(413, `The body is larger than ${MAX_BODY_BYTES} bytes.`, [ErrorCode.payloadTooLarge]),
        415: experimental.error(415, 'The body is not sent as Content-Type: application/json.', [ErrorCode.unsupportedMediaType]),
        429: experimental.rateLimited,
        500: experimental.internal,
        503: experimental.unavailable,
      },
    }),
  );
  registry.registerPath(
    operation(exampleServer, 'getLowStockThreshold', {
      tags: ['Store'],
      summary: "Read a pet's low-stock threshold (experimental)",
      description: "The pet's low-stock threshold, read strongly consistent (see `putLowStockThreshold`). **Experimental**.",
      'x-experimental': true,
      request: { params: petIdParameter },
      responses: {
        200: experimental.success('The threshold.', LowStockThreshold, OPERATION_EXAMPLES.getLowStockThreshold.answer.body),
        400: experimental.error(400, invalidPetId, [ErrorCode.invalidPetId]),
        401: experimental.unauthorized,
        404: experimental.error(404, 'No inventory entry exists for petId, or it has no low-stock threshold.', [
          ErrorCode.petNotFound,
          ErrorCode.lowStockThresholdNotFound,
        ]),
        429: experimental.rateLimited,
        500: experimental.internal,
        503: experimental.unavailable,
      },
    }),
  );
  registry.registerPath(
    operation(exampleServer, 'deleteLowStockThreshold', {
      tags: ['Store'],
      summary: "Remove a pet's low-stock threshold (experimental)",
      description:
        "Removes the pet's low-stock threshold (see `putLowStockThreshold`): no alert is raised for it after. Removing a threshold that is not set answers 204 too, so a retry is no error. **Experimental**.",
      'x-experimental': true,
      request: { params: petIdParameter },
      responses: {
        204: experimental.noContent('The pet has no threshold now.'),
        400: experimental.error(400, invalidPetId, [ErrorCode.invalidPetId]),
        401: experimental.unauthorized,
        404: experimental.error(404, 'No inventory entry exists for petId. Nothing was written.', [ErrorCode.petNotFound]),
        429: experimental.rateLimited,
        500: experimental.internal,
        503: experimental.unavailable,
      },
    }),
  );

  const deprecated = answersOf(headers, DEPRECATION_HEADERS);
  const deprecation = getPetByIdDeprecation(petsSunset);
  registry.registerPath(
    operation(exampleServer, 'getPetById', {
      tags: ['Pets'],
      summary: 'Find a pet by id (deprecated)',
      description: `Returns what the service knows of the pet: its id and status. **Deprecated** since ${isoDate(deprecation.deprecatedAt)}, **sunset ${isoDate(deprecation.sunsetAt)}**: every answer of the function carries \`Deprecation\`, \`Sunset\` and a \`Link\` to ${GET_PET_BY_ID_DEPRECATION_NOTICE}; after the Sunset date the operation may stop answering. Read the inventory with \`listInventory\` instead.`,
      deprecated: true,
      'x-sunset': isoDate(deprecation.sunsetAt),
      request: { params: petIdParameter },
      responses: {
        200: deprecated.success('The pet.', Pet, OPERATION_EXAMPLES.getPetById.answer.body),
        400: deprecated.error(400, invalidPetId, [ErrorCode.invalidPetId]),
        401: deprecated.unauthorized,
        404: deprecated.error(404, 'The inventory has no entry for petId.', [ErrorCode.petNotFound]),
        429: deprecated.rateLimited,
        500: deprecated.internal,
        503: deprecated.unavailable,
      },
    }),
  );

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
        '**Versioning**: `v1` is the last path segment of every server. `updateInventory`, `adjustInventory`, `adjustInventoryBatch`, `listInventoryChanges`, `listInventoryChangeFeed` and the low-stock threshold operations are experimental (`x-experimental`, `X-API-Stability`); `getPetById` is deprecated (`Deprecation`, `Sunset`, `Link`).',
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

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The text of openapi.json (what `npm run openapi` writes, indented for people reading its
 * changes), or of a served copy (compact: it is read by programs, and a stage serves it from one
 * mapping template of at most 300 KB). The examples' int64 ids are written digit for digit;
 * non-ASCII characters as \u escapes, so the text is ASCII and survives any byte-to-text step on
 * its way (API Gateway's mapping templates).
 */
export function renderOpenApiDocument(options: PublishedDocumentOptions = {}, { compact = false }: { compact?: boolean } = {}): string {
  const text = JSON.stringify(
    buildOpenApiDocument(options),
    (_key, value: unknown) => (typeof value === 'bigint' ? JSON.rawJSON(value.toString()) : value),
    compact ? undefined : 2,
  );
  return `${text.replace(/[\u0080-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}
