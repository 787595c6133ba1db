import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { z } from 'zod';
import { BadRequestError, ErrorCode, PayloadTooLargeError, UnsupportedMediaTypeError } from '../domain/errors.ts';
import { findDuplicateKey } from './duplicate-json-keys.ts';

/** InventoryUpdate is a few bytes; anything near this cap is not a well-meant request. */
export const MAX_BODY_BYTES = 4_096;

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'body'}: ${issue.message}`)
    .join('; ');
}

/**
 * Parses and validates a JSON body against a zod schema, answering in the contract's terms:
 * Middy's parser says 415 or 422; our contract says 400 for any invalid body (415 only for a
 * body that does not claim to be JSON, 413 above the size cap). On success event.body holds
 * the parsed, validated value.
 */
export function jsonBody<Schema extends z.ZodType>(schema: Schema): MiddlewareObj<APIGatewayProxyEvent> {
  const parser = httpJsonBodyParser();
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
        if (status === 422) throw new BadRequestError(ErrorCode.malformedJson, `Request body is not valid JSON: ${(error as Error).message}.`);
        throw error;
      }
      const duplicate = findDuplicateKey(isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body);
      if (duplicate !== undefined) {
        throw new BadRequestError(ErrorCode.malformedJson, `Request body is ambiguous: the key ${JSON.stringify(duplicate.slice(0, 64))} occurs more than once in one object.`);
      }
      const parsed = schema.safeParse(request.event.body);
      if (!parsed.success) throw new BadRequestError(ErrorCode.invalidBody, describeIssues(parsed.error));
      (request.event as { body: unknown }).body = parsed.data;
    },
  };
}
