import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';

/** What a guard that serves buffered and streamed answers alike may read and change: the status and headers. */
export type ResponseHead = Pick<APIGatewayProxyResult, 'statusCode' | 'headers'>;

/**
 * Adds headers to the function's answer, success and error alike. Registered before the error
 * formatter (guards and the request id are), so that its onError runs after the formatter has
 * built the error's answer. `headersOf` gives this request's headers, or undefined for none.
 */
export function headersOnEveryAnswer<Result extends ResponseHead = ResponseHead>(
  headersOf: (request: Request<APIGatewayProxyEvent, Result>) => Readonly<Record<string, string>> | undefined,
): Required<Pick<MiddlewareObj<APIGatewayProxyEvent, Result>, 'after' | 'onError'>> {
  const addHeaders = (request: Request<APIGatewayProxyEvent, Result>) => {
    const headers = headersOf(request);
    if (headers && request.response) request.response.headers = { ...request.response.headers, ...headers };
  };
  return { after: addHeaders, onError: addHeaders };
}
