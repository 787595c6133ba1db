import httpJsonBodyParser from '@middy/http-json-body-parser';
import validator from '@middy/validator';
import { describe, expect, it } from 'vitest';
import { errorResponse, toApiError } from '../../../functions/http/error-formatter.ts';
import { InventoryUpdate } from '../../../functions/http/request-body-validators.generated.ts';
import { patchEvent } from '../../support/events.ts';

/** What a Middy middleware throws for this event: an HttpError of @middy/util (createError), with its status. */
async function thrownBy(middleware: { before?: (request: never) => unknown }, event: ReturnType<typeof patchEvent>): Promise<Error> {
  try {
    await middleware.before!({ event, context: {}, response: undefined, error: undefined, internal: {} } as never);
  } catch (error) {
    return error as Error;
  }
  throw new Error('the middleware threw nothing');
}

const parser = httpJsonBodyParser();
const answerTo = (error: unknown) => {
  const { statusCode, body } = errorResponse(toApiError(error, 'PATCH'));
  return [statusCode, JSON.parse(body) as unknown];
};

describe('the error formatter', () => {
  it.each([
    [
      'a key the JSON body parser forbids',
      '{"constructor": {"prototype": {}}}',
      'application/json',
      400,
      'MALFORMED_JSON',
      'Forbidden key in JSON body',
    ],
    [
      'a body the JSON body parser cannot parse',
      '{"quantity": ',
      'application/json',
      400,
      'MALFORMED_JSON',
      'Invalid or malformed JSON was provided',
    ],
    [
      'a media type the JSON body parser refuses',
      '{"quantity": 1}',
      'application/json ; charset=utf-8',
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'Unsupported Media Type',
    ],
  ])('answers %s with the Error body, not 500', async (_case, body, contentType, status, code, message) => {
    const error = await thrownBy(parser, patchEvent('1', body, contentType));

    expect(answerTo(error)).toEqual([status, { code, message, status }]);
  });

  it("answers the validator's refusal 400 INVALID_BODY", async () => {
    const event = { ...patchEvent('1', null), body: { quantity: -1 } } as never;

    const error = await thrownBy(validator({ eventSchema: InventoryUpdate as never }), event);

    expect(answerTo(error)).toEqual([400, { code: 'INVALID_BODY', message: 'Event object failed validation', status: 400 }]);
  });

  it("answers any other client error of Middy's 400 BAD_REQUEST, and keeps a server error of Middy's a 500 whose detail stays in the log", async () => {
    const HttpError = (await thrownBy(parser, patchEvent('1', '{', 'text/plain'))).constructor as new (
      status: number,
      message: string,
    ) => Error;

    expect(answerTo(new HttpError(406, 'Not Acceptable'))).toEqual([400, { code: 'BAD_REQUEST', message: 'Not Acceptable', status: 400 }]);
    expect(answerTo(new HttpError(413, 'Payload Too Large'))).toEqual([
      413,
      { code: 'PAYLOAD_TOO_LARGE', message: 'Payload Too Large', status: 413 },
    ]);
    expect(answerTo(new HttpError(500, 'Response object failed validation'))).toEqual([
      500,
      { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred.', status: 500 },
    ]);
  });
});
