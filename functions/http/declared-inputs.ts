import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ApiError, ErrorCode } from '../domain/errors.ts';
import type { ApiRoute } from '../routes.ts';

/**
 * Refuses what the operation does not take, as strictly as an unknown body field is refused: a
 * query parameter it does not declare (a typo such as `lowstock` would otherwise answer as if it
 * were absent), one sent twice (which value counts would be an accident of the parser), and a
 * body where it takes none. Each is 400, naming what the operation takes; nothing is read or
 * written for it.
 */
export function declaredInputs(route: Pick<ApiRoute, 'operationId' | 'query' | 'body'>): MiddlewareObj<APIGatewayProxyEvent> {
  const declared = Object.keys(route.query ?? {});
  const takes =
    declared.length === 0
      ? `${route.operationId} takes no query parameters`
      : `${route.operationId} takes ${declared.map((name) => `\`${name}\``).join(', ')}, each at most once`;
  return {
    before: ({ event }) => {
      // Every value under its name: API Gateway and the local server fill multiValueQueryStringParameters alike.
      const sent =
        event.multiValueQueryStringParameters ??
        Object.fromEntries(Object.entries(event.queryStringParameters ?? {}).map(([name, value]) => [name, [value]]));
      for (const [name, values] of Object.entries(sent)) {
        if (!declared.includes(name)) throw new ApiError(ErrorCode.invalidQuery, `${name}: not a query parameter here; ${takes}.`);
        if ((values?.length ?? 0) > 1) throw new ApiError(ErrorCode.invalidQuery, `${name}: sent ${values!.length} times; ${takes}.`);
      }
      if (!route.body && event.body !== null && event.body !== undefined && event.body.length > 0)
        throw new ApiError(ErrorCode.invalidBody, `${route.operationId} takes no request body; send it without one.`);
    },
  };
}
