import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { ErrorCode } from '../functions/domain/errors.ts';
import { FAILED_AUTHENTICATIONS_POLICY } from '../functions/domain/failed-authentications.ts';
import { ErrorBody } from '../functions/domain/schemas.ts';
import { CONTENT_ENCODINGS } from '../functions/http/content-encoding.ts';
import { ERROR_STATUSES, RETRY_AFTER_HEADER } from '../functions/http/error-statuses.ts';
import { PayloadTooLargeError } from '../functions/http/json-body.ts';
import { REPLAYED_HEADER } from '../functions/http/idempotent-answers.ts';
import { lifecycleHeaders } from '../functions/http/lifecycle-headers.ts';
import {
  RATE_LIMIT_HEADER,
  RATE_LIMIT_LIMIT_HEADER,
  RATE_LIMIT_POLICY_HEADER,
  RATE_LIMIT_REMAINING_HEADER,
  RATE_LIMIT_RESET_HEADER,
} from '../functions/http/rate-limit-headers.ts';
import { REQUEST_ID_HEADER } from '../functions/http/request-context.ts';
import { apiRoutes, routeOf } from '../functions/routes.ts';
import { ERROR_CODES, errorExample } from './examples.ts';

/**
 * The OpenAPI document's headers, and the answers of an operation by who gives them: the
 * function (rate-limit headers and the operation's signals) or API Gateway.
 */

export type HeaderName =
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
export type SignalHeader = Exclude<HeaderName, typeof REPLAYED_HEADER>;
type HeaderObject = { description: string; required?: boolean; schema: Record<string, unknown> };
export type ResponseHeaders = Record<string, HeaderObject | { $ref: string }>;

const RATE_LIMIT_HEADERS: readonly SignalHeader[] = [
  RATE_LIMIT_LIMIT_HEADER,
  RATE_LIMIT_REMAINING_HEADER,
  RATE_LIMIT_RESET_HEADER,
  RATE_LIMIT_POLICY_HEADER,
  RATE_LIMIT_HEADER,
];
/** The structured fields' text: draft-ietf-httpapi-ratelimit-headers-10 (docs/rate-limit-fields.md). */
export const RATE_LIMIT_DRAFT = 'draft-ietf-httpapi-ratelimit-headers-10';
export const DEPRECATION_HEADERS: readonly SignalHeader[] = ['Deprecation', 'Sunset', 'Link'];
const HTTP_DATE =
  '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$';

function headerDefinitions(petsSunset: Date | undefined): Record<HeaderName, HeaderObject> {
  const integer = (minimum: number) => ({ type: 'integer', minimum });
  const { Deprecation: deprecationExample, Sunset: sunsetExample, Link: linkExample } = lifecycleHeaders(routeOf('getPetById'), petsSunset);
  const stabilities = [...new Set(apiRoutes.map((route) => route.stability).filter((stability) => stability !== 'stable'))];
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
      schema: { type: 'string', enum: stabilities },
    },
    Deprecation: {
      description: 'RFC 9745: the operation is deprecated since this moment (a structured-field date: `@` and Unix seconds).',
      schema: { type: 'string', pattern: '^@-?[0-9]+$', examples: [deprecationExample] },
    },
    Sunset: {
      description: `RFC 8594: an HTTP-date after which the operation may stop answering. Set per stage; here ${sunsetExample}.`,
      schema: { type: 'string', pattern: HTTP_DATE, examples: [sunsetExample] },
    },
    Link: {
      description: 'Where the deprecation and the sunset are explained (rel="deprecation", rel="sunset").',
      schema: { type: 'string', examples: [linkExample] },
    },
    [REPLAYED_HEADER]: {
      description:
        'Present when the answer repeats the outcome of an earlier request with the same Idempotency-Key: nothing was applied this time.',
      schema: { type: 'string', enum: ['true'] },
    },
    ETag: {
      description:
        "The entry's version, as a strong entity tag: the number of changes in its history (its last history record's `version`). Send it in If-Match to update only that version.",
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
export function registerHeaders(registry: OpenAPIRegistry, petsSunset: Date | undefined) {
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
      description: 'Unix time (seconds) at which the minute ends.',
      required: true,
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
export function answersOf(
  { required, optional, replayed }: ReturnType<typeof registerHeaders>,
  signals: readonly SignalHeader[],
  answer: { schema: z.ZodType; example?: unknown },
) {
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
  const functionError = (status: number, description: string, codes: readonly ErrorCode[], { mayReplay = false } = {}) =>
    error(status, description, codes, { ...required(fromFunction), ...(mayReplay ? replayed() : {}) });
  return {
    /** The 200: the operation's answer schema (routes.ts) and its example's answer, when that is a success (operation-documents.ts). */
    success: (
      description: string,
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
      content: { 'application/json': answer },
    }),
    /** The 413 of an operation that reads a body: its own cap (its route's maxBodyBytes), in the description and the example alike. */
    tooLarge: (maxBodyBytes: number): ResponseConfig => {
      const answer = error(413, `The body is larger than ${maxBodyBytes} bytes.`, [ErrorCode.payloadTooLarge], required(fromFunction));
      const example = { ...errorExample(ErrorCode.payloadTooLarge), message: new PayloadTooLargeError(maxBodyBytes).message };
      return {
        ...answer,
        content: {
          'application/json': {
            schema: ErrorBody,
            examples: { [ErrorCode.payloadTooLarge]: { summary: ERROR_CODES[ErrorCode.payloadTooLarge].meaning, value: example } },
          },
        },
      };
    },
    /** A 204: the function's headers, no body. */
    noContent: (description: string): ResponseConfig => ({ description, headers: { ...everyAnswer, ...required(fromFunction) } }),
    error: functionError,
    /** The 415 of an operation that reads a body. */
    unsupportedMediaType: functionError(415, 'The body is not sent as Content-Type: application/json.', [ErrorCode.unsupportedMediaType]),
    unauthorized: error(
      401,
      "The API key is missing, malformed, unknown or revoked, or the source address has no failed authentications left this minute (X-RateLimit-Remaining 0; no key is looked up until the minute ends). Answered before the key is known: the X-RateLimit-* headers describe the source address's window of failed authentications and the operation's signals are absent. Every such request, one without Authorization included, is answered by the authorizer and counted in the window. A key revoked less than a minute ago may be refused after the authorizer let it through, by the counting write: its X-RateLimit-* are then the key's own windows.",
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
