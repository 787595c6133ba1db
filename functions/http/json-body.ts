import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import validator from '@middy/validator';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { ErrorObject } from 'ajv';
import { ApiError, ERROR_MESSAGES, ErrorCode } from '../domain/errors.ts';
import { parsePetId, MAX_INT64 } from '../domain/pet-id.ts';
import { describePath, parseStrictJson, StrictJsonError } from './strict-json.ts';

/** A body larger than the operation's cap: a refusal of the HTTP layer, which reads bodies. */
export class PayloadTooLargeError extends ApiError {
  constructor(limitBytes: number) {
    super(ErrorCode.payloadTooLarge, `Request body exceeds ${limitBytes} bytes.`);
  }
}

/** Body fields that hold int64 ids: read from their source text, since a double rounds ids above 2^53. */
const INT64_FIELDS: ReadonlySet<string> = new Set(['petId']);

type SourceReviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

/** An int64 field written as a canonical integer within int64 becomes a bigint; any other spelling stays a number, which exactInt64Fields refuses. */
const reviveInt64: SourceReviver = (key, value, context) => {
  if (typeof value !== 'number' || !INT64_FIELDS.has(key)) return value;
  return parsePetId(context?.source) ?? value;
};

/** Whether any object in the value has an int64 field: only such bodies are read a second time. */
function hasInt64Field(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasInt64Field);
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, field]) => INT64_FIELDS.has(key) || hasInt64Field(field));
}

/**
 * Fails on the first int64 field that is still a number: written with an exponent or a fraction,
 * or past the int64 range by less than a double can tell (the validator compared doubles).
 */
/** What an int64 field must be, with the bound written exactly (a double would write 2^63 - 1 as 9223372036854776000). */
const INT64_EXPECTED = `Invalid input: expected an integer from 1 to ${MAX_INT64} written in digits`;

function exactInt64Fields(value: unknown, path: string[] = []): void {
  if (Array.isArray(value)) {
    for (const [index, element] of value.entries()) exactInt64Fields(element, [...path, String(index)]);
  } else if (value !== null && typeof value === 'object')
    for (const [key, field] of Object.entries(value)) {
      if (INT64_FIELDS.has(key) && typeof field === 'number')
        throw new ApiError(ErrorCode.invalidBody, `${[...path, key].join('.')}: ${INT64_EXPECTED}`);
      exactInt64Fields(field, [...path, key]);
    }
}

/**
 * An Ajv-compiled validator of an event whose body is `Body` (request-body-validators.generated.ts),
 * as @middy/validator calls it: true or false, with the errors left on the function.
 */
export interface BodyValidator<Body> {
  (event: unknown): boolean;
  errors?: ErrorObject[] | null;
  /** Never set: carries the body's type to the handler. */
  readonly body?: Body;
}

/** The name zod gives a value's type in its messages. */
function received(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** JSON Schema's type in zod's words: an integer is `int` to zod once it is a number at all. */
function expected(type: unknown, value: unknown): string {
  if (type === 'integer') return typeof value === 'number' ? 'int' : 'number';
  return String(type);
}

/** A value as zod quotes it in a message: strings in plain double quotes, unescaped. */
const quoted = (value: unknown) => (typeof value === 'string' ? `"${value}"` : String(value));
const listOptions = (values: unknown) => (values as unknown[]).map(quoted).join('|');

/** One Ajv error in the words zod uses for the same fault, so messages did not change with the validator. */
function describeError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const schema = error.parentSchema as Record<string, unknown> | undefined;
  switch (error.keyword) {
    case 'type':
      // zod checks an enum's options only, whatever the value's type.
      if (schema?.enum) return `Invalid option: expected one of ${listOptions(schema.enum)}`;
      return `Invalid input: expected ${expected(params.type, error.data)}, received ${received(error.data)}`;
    case 'required': {
      const field = (schema?.properties as Record<string, Record<string, unknown>> | undefined)?.[String(params.missingProperty)];
      if (field?.enum) return `Invalid option: expected one of ${listOptions(field.enum)}`;
      return `Invalid input: expected ${expected(field?.type, undefined)}, received undefined`;
    }
    case 'enum':
      return `Invalid option: expected one of ${listOptions(params.allowedValues)}`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `Too small: expected number to be ${params.comparison}${params.limit}`;
    case 'maximum':
    case 'exclusiveMaximum':
      // The compiled schema holds int64's bound as a double, which no message may quote.
      if (INT64_FIELDS.has(error.instancePath.split('/').at(-1) ?? '')) return INT64_EXPECTED;
      return `Too big: expected number to be ${params.comparison}${params.limit}`;
    case 'minItems':
      return `Too small: expected array to have >=${params.limit} items`;
    case 'maxItems':
      return `Too big: expected array to have <=${params.limit} items`;
    case 'minLength':
      return `Too small: expected string to have >=${params.limit} characters`;
    case 'maxLength':
      return `Too big: expected string to have <=${params.limit} characters`;
    default:
      return `Invalid input: must satisfy ${error.keyword}`;
  }
}

/** A JSON Pointer below the event's body, as zod writes a path: `quantity`, `items.0.id`; the body itself is `body`. */
function fieldPath(instancePath: string, child?: unknown): string {
  const segments = instancePath
    .split('/')
    .slice(2)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (child !== undefined) segments.push(String(child));
  return segments.length > 0 ? segments.join('.') : 'body';
}

/**
 * The 400 message: each fault as `field: what is wrong`, joined by `; `, in zod's words. Unknown
 * fields come last and together per object, as zod reports them.
 */
export function describeBodyErrors(errors: readonly ErrorObject[]): string {
  const faults: string[] = [];
  const unknownKeys = new Map<string, string[]>();
  // zod stops at a value of the wrong type; Ajv goes on to its bounds, which say nothing more.
  const wrongType = new Set(errors.filter((error) => error.keyword === 'type').map((error) => error.instancePath));
  for (const error of errors) {
    if (error.keyword !== 'type' && wrongType.has(error.instancePath)) continue;
    if (error.keyword === 'additionalProperties') {
      const path = fieldPath(error.instancePath);
      unknownKeys.set(path, [...(unknownKeys.get(path) ?? []), quoted(error.params.additionalProperty)]);
    } else {
      faults.push(
        `${fieldPath(error.instancePath, error.keyword === 'required' ? error.params.missingProperty : undefined)}: ${describeError(error)}`,
      );
    }
  }
  for (const [path, keys] of unknownKeys) faults.push(`${path}: Unrecognized key${keys.length > 1 ? 's' : ''}: ${keys.join(', ')}`);
  return faults.join('; ');
}

/** application/json, or a +json type, with parameters or without. */
const JSON_CONTENT_TYPE = /^application\/(?:[^\s;/]+\+)?json\s*(?:;|$)/i;

/** Problems of values that parse as JSON but that the service does not take. */
const INVALID_VALUES: ReadonlySet<string> = new Set(['inexact number', 'not unicode']);

/**
 * The strict reader's refusal in the contract's terms: a number written inexactly and a string
 * that is not Unicode text are invalid values, the rest is not JSON this service reads.
 */
function refusalOf(error: StrictJsonError): ApiError {
  const [problem] = error.problems;
  if (problem && INVALID_VALUES.has(problem.kind))
    return new ApiError(
      ErrorCode.invalidBody,
      error.problems
        .filter(({ kind }) => INVALID_VALUES.has(kind))
        .map(({ path, message }) => `${describePath(path)}: ${message}`)
        .join('; '),
    );
  if (problem?.kind === 'ambiguous')
    return new ApiError(ErrorCode.malformedJson, `Request body is ambiguous: ${describePath(problem.path)} ${problem.message}.`);
  return new ApiError(ErrorCode.malformedJson, `Request body ${problem?.message ?? 'is not valid JSON'}.`);
}

/**
 * Refuses what the strict reader refuses (a key twice, a number JSON.parse would round), but for
 * int64 fields written inexactly (an exponent, past 2^53): those are left to exactInt64Fields,
 * which names them in the contract's words.
 */
function checkStrictly(text: string): void {
  try {
    parseStrictJson(text);
  } catch (error) {
    if (!(error instanceof StrictJsonError)) throw error;
    const problems = error.problems.filter(({ kind, path }) => !(kind === 'inexact number' && INT64_FIELDS.has(String(path.at(-1)))));
    if (problems.length > 0) throw refusalOf(new StrictJsonError(problems));
  }
}

/**
 * What jsonBody makes: the body's middleware for the operation's cap (its route's maxBodyBytes,
 * which the stack passes), typed by the body it leaves in event.body.
 */
export interface JsonBodyMiddleware<Body> {
  (maxBodyBytes: number): MiddlewareObj<APIGatewayProxyEvent>;
  /** For the compiler only: never set. */
  readonly yields?: Body;
}

/**
 * Checks the JSON body with the strict reader, parses it with @middy/http-json-body-parser and
 * validates it with @middy/validator against a compiled validator, answering in the contract's terms: 400 INVALID_BODY naming the field
 * (MALFORMED_JSON for JSON that does not parse or is ambiguous), 415 only for a body that does
 * not claim to be JSON, 413 above the size cap. On success event.body holds the parsed, valid
 * value, its int64 fields (petId) as exact bigints: the validator checks them as JSON numbers,
 * and they are then read again from their text.
 */
export function jsonBody<Body>(validate: BodyValidator<Body>): JsonBodyMiddleware<Body> {
  return (maxBodyBytes) => bodyMiddleware(validate, maxBodyBytes);
}

function bodyMiddleware<Body>(validate: BodyValidator<Body>, maxBodyBytes: number): MiddlewareObj<APIGatewayProxyEvent> {
  // The media type is checked here first, by RFC 9110's rules (whitespace before a parameter, any
  // subtype suffix of RFC 6838); the parser's stricter pattern would refuse what this accepts.
  const parser = httpJsonBodyParser({ disableContentTypeCheck: true });
  // Middy's types ask for an Ajv instance; what it calls is the compiled function.
  const bodyValidator = validator({ eventSchema: validate as never });
  return {
    before: async (request) => {
      const { body, isBase64Encoded } = request.event;
      if (body === null || body === undefined || body.length === 0) {
        throw new ApiError(ErrorCode.invalidBody, 'A JSON request body is required.');
      }
      const size = isBase64Encoded ? Buffer.byteLength(body, 'base64') : Buffer.byteLength(body, 'utf8');
      if (size > maxBodyBytes) throw new PayloadTooLargeError(maxBodyBytes);
      const headers = request.event.headers ?? {};
      const contentType = headers['content-type'] ?? headers['Content-Type'] ?? '';
      if (!JSON_CONTENT_TYPE.test(contentType)) throw new ApiError(ErrorCode.unsupportedMediaType, ERROR_MESSAGES.unsupportedMediaType);
      const text = isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
      checkStrictly(text);
      // The text is strict JSON of a JSON content type by now, so the card's parser only parses
      // it; the byte order mark RFC 8259 lets a reader skip is skipped for it, as the strict reader does.
      Object.assign(request.event, { body: text.replace(/^\uFEFF/, ''), isBase64Encoded: false });
      await parser.before!(request as never);
      try {
        await bodyValidator.before!(request as never);
      } catch (error) {
        const errors = ((error as Error).cause as { data?: ErrorObject[] } | undefined)?.data;
        if ((error as { statusCode?: number }).statusCode === 400 && errors)
          throw new ApiError(ErrorCode.invalidBody, describeBodyErrors(errors));
        throw error;
      }
      if (hasInt64Field(request.event.body)) {
        const exact: unknown = JSON.parse(text, reviveInt64 as Parameters<typeof JSON.parse>[1]);
        exactInt64Fields(exact);
        request.event.body = exact as never;
      }
    },
  };
}
