import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import validator from '@middy/validator';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { ErrorObject } from 'ajv';
import { BadRequestError, ErrorCode, PayloadTooLargeError, UnsupportedMediaTypeError } from '../domain/errors.ts';
import { findDuplicateKey } from './duplicate-json-keys.ts';

/** InventoryUpdate is a few bytes; anything near this cap is not a well-meant request. */
export const MAX_BODY_BYTES = 4_096;

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
      return `Too big: expected number to be ${params.comparison}${params.limit}`;
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

/** The middleware jsonBody makes, typed by the body it leaves in event.body. */
export interface JsonBodyMiddleware<Body> extends MiddlewareObj<APIGatewayProxyEvent> {
  /** For the compiler only: never set. */
  readonly yields?: Body;
}

/**
 * Parses the JSON body and validates it with @middy/validator against a compiled validator,
 * answering in the contract's terms: Middy's parser says 415 or 422 and its validator 400 with
 * its own message; our contract says 400 INVALID_BODY naming the field (MALFORMED_JSON for
 * JSON that does not parse), 415 only for a body that does not claim to be JSON, 413 above the
 * size cap. On success event.body holds the parsed, valid value.
 */
export function jsonBody<Body>(validate: BodyValidator<Body>): JsonBodyMiddleware<Body> {
  const parser = httpJsonBodyParser();
  // Middy's types ask for an Ajv instance; what it calls is the compiled function.
  const bodyValidator = validator({ eventSchema: validate as never });
  return {
    before: async (request) => {
      const { body, isBase64Encoded } = request.event;
      if (body === null || body === undefined || body.length === 0) {
        throw new BadRequestError(ErrorCode.invalidBody, 'A JSON request body is required.');
      }
      const size = isBase64Encoded ? Buffer.byteLength(body, 'base64') : Buffer.byteLength(body, 'utf8');
      if (size > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
      try {
        await parser.before!(request as never);
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode;
        if (status === 415) throw new UnsupportedMediaTypeError();
        if (status === 422)
          throw new BadRequestError(ErrorCode.malformedJson, `Request body is not valid JSON: ${(error as Error).message}.`);
        throw error;
      }
      const duplicate = findDuplicateKey(isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body);
      if (duplicate !== undefined) {
        throw new BadRequestError(
          ErrorCode.malformedJson,
          `Request body is ambiguous: the key ${JSON.stringify(duplicate.slice(0, 64))} occurs more than once in one object.`,
        );
      }
      try {
        await bodyValidator.before!(request as never);
      } catch (error) {
        const errors = ((error as Error).cause as { data?: ErrorObject[] } | undefined)?.data;
        if ((error as { statusCode?: number }).statusCode === 400 && errors)
          throw new BadRequestError(ErrorCode.invalidBody, describeBodyErrors(errors));
        throw error;
      }
    },
  };
}
