import { APIGatewayProxyEventSchema, APIGatewayRequestAuthorizerEventSchema } from '@aws-lambda-powertools/parser/schemas/api-gateway';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { authorizerEvent as benchAuthorizerEvent, routeEvent } from '../../../bench/fixtures.ts';
import type { ApiKeyRecord } from '../../../functions/domain/api-keys.ts';
import { requestTime, sourceIpOf } from '../../../local/gateway-events.ts';
import { createLocalServer, listen } from '../../../local/local-server.ts';
import { apiRoutes } from '../../../functions/routes.ts';
import { patchEvent, proxyEvent } from '../../support/events.ts';

/**
 * The events our stand-ins for API Gateway build, checked against the schemas of Powertools for
 * AWS Lambda's parser, which AWS writes from the documented event formats: a handler tested on
 * them is tested on what API Gateway sends.
 */

/** The schema's complaints, one line each, so that a failure says which field is wrong. */
function problems(schema: z.ZodType, event: unknown): string[] {
  const result = schema.safeParse(event);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe("the local server's events", () => {
  const received: { authorizer: APIGatewayRequestAuthorizerEvent[]; proxy: APIGatewayProxyEvent[] } = { authorizer: [], proxy: [] };
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    server = createLocalServer({
      authorizer: async (event) => {
        received.authorizer.push(event);
        return {
          principalId: 'key_events',
          policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: '*' }] },
          context: { keyId: 'key_events', plan: 'free', perMinute: 60, perDay: 1_000 },
        };
      },
      uncountedRateLimitHeaders: () => ({}),
      routes: apiRoutes.map((route) => ({
        route,
        handler: async (event: APIGatewayProxyEvent) => {
          received.proxy.push(event);
          return { statusCode: 200, body: '{}' };
        },
      })),
    });
    baseUrl = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}/v1`;
    await fetch(`${baseUrl}/inventory?status=available&status=sold`, { headers: { Authorization: 'Bearer events' } });
    await fetch(`${baseUrl}/inventory/7`, {
      method: 'PATCH',
      // Another key: the server keeps the authorizer's answer for a header it has seen, as API Gateway does.
      headers: { Authorization: 'Bearer events-patch', 'Content-Type': 'application/json' },
      body: '{"quantity":3}',
    });
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the authorizer a REQUEST event as API Gateway does', () => {
    expect(received.authorizer).toHaveLength(2);
    for (const event of received.authorizer) expect(problems(APIGatewayRequestAuthorizerEventSchema, event)).toEqual([]);
  });

  it('sends the functions proxy events as API Gateway does, with the query, path parameters, body and authorizer context', () => {
    expect(received.proxy).toHaveLength(2);
    for (const event of received.proxy) expect(problems(APIGatewayProxyEventSchema, event)).toEqual([]);
    const [list, patch] = received.proxy;
    expect(list?.multiValueQueryStringParameters).toEqual({ status: ['available', 'sold'] });
    expect(patch?.pathParameters).toEqual({ petId: '7' });
    expect(patch?.body).toBe('{"quantity":3}');
    expect(patch?.requestContext.authorizer).toMatchObject({
      principalId: 'key_events',
      plan: 'free',
      integrationLatency: expect.any(Number),
    });
  });
});

describe("the tests' and the benchmarks' events", () => {
  const record = { keyId: 'key_bench', plan: 'enterprise', customLimits: { perMinute: 10, perDay: 100 } } as ApiKeyRecord;

  it.each<[string, APIGatewayProxyEvent]>([
    ['the proxy event fixture', proxyEvent()],
    ['the PATCH fixture', patchEvent('1', '{"quantity":1}')],
    ['an event without an authorizer', proxyEvent({ caller: null })],
    ...apiRoutes.map((route): [string, APIGatewayProxyEvent] => [`the bench's ${route.operationId} event`, routeEvent(route, record)]),
  ])('%s is a proxy event as API Gateway sends it', (_name, event) => {
    expect(problems(APIGatewayProxyEventSchema, event)).toEqual([]);
  });

  it("the bench's authorizer event is a REQUEST authorizer event as API Gateway sends it", () => {
    expect(problems(APIGatewayRequestAuthorizerEventSchema, benchAuthorizerEvent('BenchKey0000000000000001'))).toEqual([]);
  });
});

describe('the fields API Gateway formats', () => {
  it('writes requestTime in the Common Log Format, in UTC', () => {
    expect(requestTime(Date.UTC(2026, 10, 4, 6, 7, 8))).toBe('04/Nov/2026:06:07:08 +0000');
  });

  it('names an IPv4 client by its IPv4 address, even when it came over a dual-stack socket', () => {
    expect([sourceIpOf('::ffff:10.0.0.1'), sourceIpOf('10.0.0.1'), sourceIpOf('2001:db8::1')]).toEqual([
      '10.0.0.1',
      '10.0.0.1',
      '2001:db8::1',
    ]);
  });
});
