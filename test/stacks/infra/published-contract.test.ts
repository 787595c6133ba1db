import { beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_PAGES, publishedPageHeaders } from '../../../contract/published-contract.ts';
import { uncountedState } from '../../../functions/domain/failed-authentications.ts';
import { rateLimitHeaders } from '../../../functions/http/rate-limit-headers.ts';
import { routeOf } from '../../../functions/routes.ts';
import { API_STAGE_NAME } from '../../../lib/deployments.ts';
import { MAX_MAPPING_TEMPLATE_BYTES, PUBLISHED_PAGE_THROTTLE } from '../../../lib/published-contract.ts';
import { PETS_SUNSET_CONTEXT_KEY } from '../../../lib/petstore-inventory-stack.ts';
import {
  onlyResource,
  resourcePath,
  resourcesOfType,
  STAGES,
  synthesizeApp,
  type Resources,
  type SynthesizedApp,
} from './synthesized-app.ts';
import { gatewayContext, render } from '../../support/gateway-velocity.ts';
import { expectAgreeingRateLimitFields } from '../../support/rate-limit-fields.ts';

/**
 * The pages of the published contract on each stage: mock integrations, no function, no key.
 * Their mapping templates are rendered here with velocityjs, a Velocity engine, given what API
 * Gateway gives a template ($context, $util, $input), and the answer is compared with the page
 * the local server renders for the same URL.
 */

const STAGE_HOST = 'abc123defg.execute-api.eu-west-1.amazonaws.com';
const STAGE_URL = `https://${STAGE_HOST}/${API_STAGE_NAME}`;
/** When the requests arrive: 2026-11-22T10:15:42.123Z, 42 s into a minute. */
const REQUEST_TIME_EPOCH = Date.UTC(2026, 10, 22, 10, 15, 42, 123);
/** A request's time, and the end of its minute in Unix seconds: within the minute, at its last millisecond, at the next one's first. */
const MINUTE_ENDS: readonly (readonly [number, number])[] = [
  [REQUEST_TIME_EPOCH, Date.UTC(2026, 10, 22, 10, 16) / 1000],
  [Date.UTC(2026, 10, 22, 10, 15, 59, 999), Date.UTC(2026, 10, 22, 10, 16) / 1000],
  [Date.UTC(2026, 10, 22, 10, 16, 0, 0), Date.UTC(2026, 10, 22, 10, 17) / 1000],
];

/** A request for a page of the stage at STAGE_HOST, at REQUEST_TIME_EPOCH unless told. */
const pageContext = (requestHeaders: Record<string, string> = {}, requestTimeEpoch = REQUEST_TIME_EPOCH) =>
  gatewayContext({ domainName: STAGE_HOST, requestTimeEpoch, requestHeaders });

// Only the construct tree and templates matter here: the functions are not bundled.
let synthesized: SynthesizedApp;
let withSunset: SynthesizedApp;
beforeAll(() => {
  synthesized = synthesizeApp();
  withSunset = synthesizeApp({ [PETS_SUNSET_CONTEXT_KEY]: '2027-12-01' });
});

const pages = Object.values(PUBLISHED_PAGES).map((page) => [page.resource, page] as const);

describe.each(STAGES)('the %s stage', (stage) => {
  const template = () => synthesized.templates[stage];
  const methodOf = (app: SynthesizedApp, resource: string): NonNullable<Resources[string]['Properties']> => {
    const found = Object.values(resourcesOfType(app.templates[stage], 'AWS::ApiGateway::Method')).filter(
      (method) => method.Properties!.HttpMethod === 'GET' && resourcePath(app.templates[stage], method.Properties!.ResourceId) === resource,
    );
    expect(found).toHaveLength(1);
    return found[0]!.Properties!;
  };
  const answerOf = (app: SynthesizedApp, resource: string, requestHeaders: Record<string, string> = {}, requestTimeEpoch?: number) => {
    const { Integration } = methodOf(app, resource);
    const selected: { statusCode: number } = JSON.parse(
      render(Integration.RequestTemplates['application/json'], pageContext(requestHeaders)),
    );
    const response = Integration.IntegrationResponses.find((candidate: { SelectionPattern?: string }) =>
      candidate.SelectionPattern === undefined
        ? selected.statusCode === 200
        : new RegExp(`^${candidate.SelectionPattern}$`).test(String(selected.statusCode)),
    );
    const templates = Object.values(response.ResponseTemplates) as string[];
    expect(templates).toHaveLength(1);
    const mapped = Object.fromEntries(
      Object.entries(response.ResponseParameters as Record<string, string>).map(([name, value]) => [
        name.replace('method.response.header.', ''),
        value.replace(/^'|'$/g, '').replaceAll("\\'", "'"),
      ]),
    );
    const responseContext = pageContext(requestHeaders, requestTimeEpoch);
    const body = render(templates[0]!, responseContext);
    const declared = methodOf(app, resource).MethodResponses.find(
      (candidate: { StatusCode: string }) => candidate.StatusCode === response.StatusCode,
    );
    return {
      status: Number(response.StatusCode),
      /** What the client receives: the mapped headers, then the template's overrides. */
      headers: { ...mapped, ...responseContext.context.responseOverride.header },
      mapped,
      declared: Object.keys(declared.ResponseParameters).map((name) => name.replace('method.response.header.', '')),
      body,
      template: templates[0]!,
    };
  };
  /** The uncounted window at a request's time (functions/domain/failed-authentications.ts), as the local server reports it. */
  const uncountedHeaders = (requestTimeEpoch = REQUEST_TIME_EPOCH) => rateLimitHeaders(uncountedState(requestTimeEpoch));

  it.each(pages)('answers GET %s from a mock integration, without a key or a function', (resource) => {
    expect(methodOf(synthesized, resource)).toMatchObject({
      AuthorizationType: 'NONE',
      ApiKeyRequired: false,
      Integration: { Type: 'MOCK', PassthroughBehavior: 'NEVER' },
    });
    expect(methodOf(synthesized, resource)).not.toHaveProperty('AuthorizerId');
  });

  it.each(pages)('serves %s as the local server renders it for the stage URL, servers and curl lines included', (resource, page) => {
    const answer = answerOf(synthesized, resource);

    expect(answer.status).toBe(200);
    expect(answer.body).toBe(page.render({ serverUrl: STAGE_URL, petsSunset: routeOf('getPetById').deprecation.sunsetAt }));
    expect(answer.body).toContain(`${STAGE_URL}/inventory`);
    expect(answer.body).not.toContain('.invalid');
  });

  it('names the stage URL as the only server of its openapi.json', () => {
    const document = JSON.parse(answerOf(synthesized, '/openapi.json').body);
    expect(document.servers).toEqual([{ url: STAGE_URL, description: expect.any(String) }]);
  });

  it.each(pages)("keeps the %s template within API Gateway's 300 KB limit for one mapping template", (resource) => {
    expect(Buffer.byteLength(answerOf(synthesized, resource).template)).toBeLessThanOrEqual(MAX_MAPPING_TEMPLATE_BYTES);
  });

  it.each(pages)(
    'sends %s with its content type, a five-minute Cache-Control, an ETag, the security headers and X-RateLimit-*',
    (resource, page) => {
      const { headers, mapped, declared } = answerOf(synthesized, resource);
      expect(headers.ETag).toMatch(/^"[\w-]{20,}"$/);
      expect(headers).toEqual({
        ...publishedPageHeaders(page, headers.ETag!),
        'Cache-Control': 'public, max-age=300',
        'X-Content-Type-Options': 'nosniff',
        'X-Frame-Options': 'DENY',
        ...uncountedHeaders(),
      });
      expect(declared.sort()).toEqual(Object.keys(mapped).sort());
    },
  );

  it.each(pages)('answers %s 304 without a body when If-None-Match names its ETag, 200 otherwise', (resource) => {
    const { ETag } = answerOf(synthesized, resource).headers;
    for (const ifNoneMatch of [ETag!, `W/${ETag}`, `"other", ${ETag}`, '*']) {
      const answer = answerOf(synthesized, resource, { 'If-None-Match': ifNoneMatch });
      expect([answer.status, answer.body, answer.headers]).toEqual([
        304,
        '',
        { ETag, 'Cache-Control': 'public, max-age=300', ...uncountedHeaders() },
      ]);
      expect(answer.declared.sort()).toEqual(Object.keys(answer.mapped).sort());
    }
    expect(answerOf(synthesized, resource, { 'if-none-match': ETag! }).status).toBe(304);
    expect(answerOf(synthesized, resource, { 'If-None-Match': '"an-older-page"' }).status).toBe(200);
  });

  it.each(pages)(
    "states in %s's 200 and 304 the uncounted window of the request's minute: Limit and Remaining mapped, Reset set by the template",
    (resource) => {
      const { ETag } = answerOf(synthesized, resource).headers;
      const requests: [number, Record<string, string>][] = [
        [200, {}],
        [304, { 'If-None-Match': ETag! }],
      ];
      for (const [status, requestHeaders] of requests) {
        const { mapped } = answerOf(synthesized, resource, requestHeaders);
        expect(mapped).toMatchObject({
          'X-RateLimit-Limit': '60',
          'X-RateLimit-Remaining': '60',
          'RateLimit-Policy': '"failed-authentications";q=60;w=60',
        });
        expect(mapped).not.toHaveProperty('X-RateLimit-Reset');
        expect(mapped).not.toHaveProperty('RateLimit');
        for (const [requestTimeEpoch, minuteEndsAt] of MINUTE_ENDS) {
          const { headers, ...answer } = answerOf(synthesized, resource, requestHeaders, requestTimeEpoch);
          expect(answer.status).toBe(status);
          expect(headers['X-RateLimit-Reset']).toBe(String(minuteEndsAt));
          expect(headers).toMatchObject(uncountedHeaders(requestTimeEpoch));
          const requestSecond = Math.floor(requestTimeEpoch / 1000);
          expect(expectAgreeingRateLimitFields(headers, { from: requestSecond, to: requestSecond })).toEqual([
            { name: 'failed-authentications', quota: 60, seconds: 60, remaining: 60, secondsLeft: minuteEndsAt - requestSecond },
          ]);
        }
      }
    },
  );

  it('gives each page its own ETag, which changes with the page', () => {
    const tags = pages.map(([resource]) => answerOf(synthesized, resource).headers.ETag);
    expect(new Set(tags).size).toBe(pages.length);
    expect(answerOf(withSunset, '/docs').headers.ETag).not.toBe(tags[pages.findIndex(([resource]) => resource === '/docs')]);
  });

  it('states the sunset the stage is deployed with (-c petsSunsetDate)', () => {
    expect(answerOf(synthesized, '/docs').body).toContain('Sunset 2027-07-01');
    const docs = answerOf(withSunset, '/docs').body;
    expect(docs).toContain('Sunset 2027-12-01');
    expect(docs).not.toContain('2027-07-01');
    expect(JSON.parse(answerOf(withSunset, '/openapi.json').body).components.headers.Sunset.schema.examples).toEqual([
      'Wed, 01 Dec 2027 00:00:00 GMT',
    ]);
  });

  it('throttles both pages on the stage, keeping the stage-wide metrics and logging settings', () => {
    const [, stageResource] = onlyResource(template(), 'AWS::ApiGateway::Stage');
    const [stageWide, ...perMethod] = stageResource.Properties!.MethodSettings;
    const pagePaths = new Set(pages.map(([resource]) => `/~1${resource.slice(1)}`));
    // The health check has settings of its own too (test/stacks/infra/inventory-api.test.ts).
    expect(perMethod.filter((settings: { ResourcePath: string }) => pagePaths.has(settings.ResourcePath))).toEqual(
      pages.map(([resource]) => ({
        HttpMethod: 'GET',
        ResourcePath: `/~1${resource.slice(1)}`,
        MetricsEnabled: stageWide.MetricsEnabled,
        LoggingLevel: stageWide.LoggingLevel,
        DataTraceEnabled: false,
        ThrottlingRateLimit: PUBLISHED_PAGE_THROTTLE.throttlingRateLimit,
        ThrottlingBurstLimit: PUBLISHED_PAGE_THROTTLE.throttlingBurstLimit,
      })),
    );
  });
});
