import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import validator from '@middy/validator';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { ErrorObject } from 'ajv';
import { ApiError, ERROR_MESSAGES, ErrorCode } from '../domain/errors.ts';
import { parsePetId, MAX_INT64 } from '../domain/pet-id.ts';
import {
  checkStrictJson,
  describePath,
  type JsonPath,
  type JsonProblem,
  type StrictJsonCheck,
  syntaxError,
  withExactIntegers,
  withoutByteOrderMark,
} from './strict-json.ts';

/** A body larger than the operation's cap: a refusal of the HTTP layer, which reads bodies. */
export class PayloadTooLargeError extends ApiError {
  constructor(limitBytes: number) {
    super(ErrorCode.payloadTooLarge, `Request body exceeds ${limitBytes} bytes.`);
  }
}

/** Body fields that hold int64 ids: read from their source text, since a double rounds ids above 2^53. */
const INT64_FIELDS: ReadonlySet<string> = new Set(['petId']);

/** What an int64 field must be, with the bound written exactly (a double would write 2^63 - 1 as 9223372036854776000). */
const INT64_EXPECTED = `Invalid input: expected an integer from 1 to ${MAX_INT64} written in digits`;

const int64Refusal = (path: JsonPath) => new ApiError(ErrorCode.invalidBody, `${describePath(path)}: ${INT64_EXPECTED}`);

/** Whether a strict problem is an int64 field written inexactly: refused after validation, in the contract's words (int64Refusal). */
const isInexactInt64 = ({ kind, path }: JsonProblem) => kind === 'inexact number' && INT64_FIELDS.has(String(path.at(-1)));

/**
 * The body's int64 fields as exact bigints, from their source text: the validator compared
 * doubles, which cannot tell ids above 2^53 apart nor see one past int64 by less than a double's
 * step. Written otherwise (an exponent, a fraction), or past int64, one is refused.
 */
function exactInt64Fields(body: unknown, { problems, exact }: StrictJsonCheck): unknown {
  const inexact = problems.find(isInexactInt64);
  if (inexact) throw int64Refusal(inexact.path);
  const outOfRange = exact.find(({ source }) => parsePetId(source) === undefined);
  if (outOfRange) throw int64Refusal(outOfRange.path);
  return withExactIntegers(body, exact);
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
function refusalOf(problems: readonly JsonProblem[]): ApiError {
  const [problem] = problems;
  if (problem && INVALID_VALUES.has(problem.kind))
    return new ApiError(
      ErrorCode.invalidBody,
      problems
        .filter(({ kind }) => INVALID_VALUES.has(kind))
        .map(({ path, message }) => `${describePath(path)}: ${message}`)
        .join('; '),
    );
  if (problem?.kind === 'ambiguous')
    return new ApiError(ErrorCode.malformedJson, `Request body is ambiguous: ${describePath(problem.path)} ${problem.message}.`);
  return new ApiError(ErrorCode.malformedJson, `Request body ${problem?.message ?? 'is not valid JSON'}.`);
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
 * Reads the JSON body once: checked by the strict reader (which builds no values), parsed by
 * @middy/http-json-body-parser, validated by @middy/validator against a compiled validator,
 * answering in the contract's terms: 400 INVALID_BODY naming the field (MALFORMED_JSON for JSON
 * that does not parse or is ambiguous), 415 only for a body that does not claim to be JSON, 413
 * above the size cap. On success event.body holds the parsed, valid value, its int64 fields
 * (petId) as exact bigints of the text the strict reader found them written as: the validator
 * checks them as JSON numbers.
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
      const text = withoutByteOrderMark(isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body);
      // The strict reader reads the text without parsing it; the card's parser is its one parse.
      const check = checkStrictJson(text, { exactKeys: [...INT64_FIELDS] });
      if (check.problems[0]?.kind === 'too deep') throw refusalOf(check.problems);
      Object.assign(request.event, { body: text, isBase64Encoded: false });
      try {
        await parser.before!(request as never);
      } catch (error) {
        // A text JSON.parse refused, or a key Middy forbids (which the strict reader names first).
        const refused = check.problems.filter((problem) => problem.kind === 'ambiguous');
        throw refusalOf(refused.length > 0 ? refused : syntaxError(text, (error as Error).cause ?? error).problems);
      }
      const problems = check.problems.filter((problem) => !isInexactInt64(problem));
      if (problems.length > 0) throw refusalOf(problems);
      try {
        await bodyValidator.before!(request as never);
      } catch (error) {
        const errors = ((error as Error).cause as { data?: ErrorObject[] } | undefined)?.data;
        if ((error as { statusCode?: number }).statusCode === 400 && errors)
          throw new ApiError(ErrorCode.invalidBody, describeBodyErrors(errors));
        throw error;
      }
      request.event.body = exactInt64Fields(request.event.body, check) as never;
    },
  };
}
