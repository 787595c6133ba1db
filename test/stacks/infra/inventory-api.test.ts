import { beforeAll, describe, expect, it } from 'vitest';
import { edgeBackstop, PLAN_LIMITS } from '../../../functions/domain/plans.ts';
import { PUBLISHED_PAGES } from '../../../contract/published-contract.ts';
import { gatewayResponses, NO_SUCH_PATH_MESSAGE, routeNotFoundAnswer } from '../../../functions/http/gateway-responses.ts';
import { apiRoutes, healthRoute } from '../../../functions/routes.ts';
import { HEALTH_THROTTLE } from '../../../lib/inventory-api.ts';
import { staticHeaderValue } from '../../../lib/static-header-value.ts';
import { JSON_HEADERS } from '../../../functions/http/json.ts';
import { API_STAGE_NAME, STACK_NAMES } from '../../../lib/deployments.ts';
import { WAF_RATE_POLICY, WAF_REQUESTS_PER_ADDRESS_PER_MINUTE } from '../../../lib/edge-shield.ts';
import { gatewayContext, render } from '../../support/gateway-velocity.ts';
import { expectAgreeingRateLimitFields, rateLimitWindowsOf } from '../../support/rate-limit-fields.ts';
import {
  AUTHORIZER_DESCRIPTION,
  functionWithDescription,
  onlyResource,
  referencedId,
  referencedIds,
  resourcePath,
  resourcesOfType,
  routeDescription,
  STAGES,
  synthesizeApp,
  type SynthesizedApp,
} from './synthesized-app.ts';

let synthesized: SynthesizedApp;
beforeAll(() => {
  synthesized = synthesizeApp();
});

describe.each(STAGES)('the %s API', (stage) => {
  const template = () => synthesized.templates[stage];
  const restApiId = () => onlyResource(template(), 'AWS::ApiGateway::RestApi')[0];
  const stageResource = () => onlyResource(template(), 'AWS::ApiGateway::Stage');
  const functionId = (prefix: string) => functionWithDescription(template(), prefix)[0];

  it('is a regional REST API named after its stack, with API keys supplied by the authorizer', () => {
    onlyResource(template(), 'AWS::ApiGateway::RestApi', {
      Name: STACK_NAMES[stage],
      ApiKeySourceType: 'AUTHORIZER',
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
  });

  it('serves stage v1 with X-Ray tracing, method metrics and error-level execution logs without bodies', () => {
    const [, resource] = stageResource();
    expect(resource.Properties).toMatchObject({ StageName: API_STAGE_NAME, TracingEnabled: true, RestApiId: { Ref: restApiId() } });
    // The published pages restate these with a throttle of their own (test/stacks/infra/published-contract.test.ts), and so does the health check.
    expect(resource.Properties!.MethodSettings[0]).toEqual({
      HttpMethod: '*',
      ResourcePath: '/*',
      MetricsEnabled: true,
      LoggingLevel: 'ERROR',
      DataTraceEnabled: false,
    });
    expect(resource.Properties!.MethodSettings).toContainEqual({
      HttpMethod: 'GET',
      ResourcePath: '/~1health',
      ThrottlingRateLimit: HEALTH_THROTTLE.rateLimit,
      ThrottlingBurstLimit: HEALTH_THROTTLE.burstLimit,
      MetricsEnabled: true,
      LoggingLevel: 'ERROR',
      DataTraceEnabled: false,
    });
  });

  it('serves GET /health from its own function, without authorizer or key, throttled apart from the keyed operations', () => {
    const method = Object.values(resourcesOfType(template(), 'AWS::ApiGateway::Method')).find(
      (candidate) => resourcePath(template(), candidate.Properties!.ResourceId) === healthRoute.resource,
    );
    expect(method?.Properties).toMatchObject({
      HttpMethod: 'GET',
      OperationName: healthRoute.operationId,
      AuthorizationType: 'NONE',
      ApiKeyRequired: false,
      Integration: { Type: 'AWS_PROXY' },
    });
    expect(method!.Properties!.AuthorizerId).toBeUndefined();
    expect(referencedIds(method!.Properties!.Integration.Uri)).toContain(functionId(routeDescription(healthRoute.operationId)));
  });

  it('writes JSON access logs, naming the key by its id and never logging the key itself', () => {
    const [, resource] = stageResource();
    const { DestinationArn, Format } = resource.Properties!.AccessLogSetting;
    const [logGroupId] = referencedIds(DestinationArn).filter((id) => !id.startsWith('AWS::'));
    expect(resourcesOfType(template(), 'AWS::Logs::LogGroup')[logGroupId!]!.Properties!.RetentionInDays).toBeGreaterThan(0);
    const fields = JSON.parse(Format);
    expect(fields).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
      keyId: '$context.authorizer.principalId',
      resourcePath: '$context.resourcePath',
    });
    expect(Format).not.toMatch(/apiKey|Authorization/i);
  });

  it('records per request the ids that find it elsewhere and what the dashboard groups by: one flat JSON object of context variables', () => {
    const fields = JSON.parse(stageResource()[1].Properties!.AccessLogSetting.Format) as Record<string, unknown>;
    expect(fields).toEqual({
      // The X-Request-Id of the answer and of every function log line; the trace in X-Ray.
      requestId: '$context.requestId',
      extendedRequestId: '$context.extendedRequestId',
      xrayTraceId: '$context.xrayTraceId',
      requestTimeEpoch: '$context.requestTimeEpoch',
      sourceIp: '$context.identity.sourceIp',
      userAgent: '$context.identity.userAgent',
      httpMethod: '$context.httpMethod',
      resourcePath: '$context.resourcePath',
      path: '$context.path',
      // The dashboard's answers by status and 429s by plan, and whether the gateway or the function answered.
      status: '$context.status',
      gatewayResponseType: '$context.error.responseType',
      plan: '$context.authorizer.plan',
      keyId: '$context.authorizer.principalId',
      responseLength: '$context.responseLength',
      responseLatency: '$context.responseLatency',
      integrationLatency: '$context.integrationLatency',
      integrationStatus: '$context.integrationStatus',
      authorizerLatency: '$context.authorizer.latency',
    });
  });

  it('creates the execution log group itself, with a retention, before the stage can log to it', () => {
    const [logGroupId, logGroup] = onlyResource(template(), 'AWS::Logs::LogGroup', {
      LogGroupName: { 'Fn::Join': ['', ['API-Gateway-Execution-Logs_', { Ref: restApiId() }, `/${API_STAGE_NAME}`]] },
    });
    expect(logGroup.Properties!.RetentionInDays).toBeGreaterThan(0);
    expect(stageResource()[1].DependsOn).toContain(logGroupId);
  });

  it('has a method for every route of functions/routes.ts, the health check and each published page, and no other', () => {
    const methods = Object.values(resourcesOfType(template(), 'AWS::ApiGateway::Method'));
    const served = methods.map((method) => `${method.Properties!.HttpMethod} ${resourcePath(template(), method.Properties!.ResourceId)}`);
    const pages = Object.values(PUBLISHED_PAGES).map((page) => `GET ${page.resource}`);
    const operations = [...[...apiRoutes, healthRoute].map((route) => `${route.method} ${route.resource}`), ...pages];
    expect(served.filter((method) => !method.startsWith('ANY ')).sort()).toEqual(operations.sort());
    // Every other method of every resource, and every other path, is the catch-all's 404.
    const resources = new Set(served.map((method) => method.split(' ')[1]));
    expect(served.filter((method) => method.startsWith('ANY ')).sort()).toEqual([...resources].map((resource) => `ANY ${resource}`).sort());
    expect(resources).toContain('/{proxy+}');
  });

  it('answers unknown paths and methods 404 ROUTE_NOT_FOUND from a mock integration, with X-RateLimit-* (Reset computed per request), without a key', () => {
    const catchAll = Object.values(resourcesOfType(template(), 'AWS::ApiGateway::Method')).filter(
      (method) => method.Properties!.HttpMethod === 'ANY',
    );
    expect(catchAll.length).toBeGreaterThan(5);
    for (const method of catchAll) {
      expect(method.Properties).toMatchObject({
        AuthorizationType: 'NONE',
        ApiKeyRequired: false,
        Integration: { Type: 'MOCK', RequestTemplates: { 'application/json': '{"statusCode": 404}' } },
      });
      const [response] = method.Properties!.Integration.IntegrationResponses;
      expect(response.StatusCode).toBe('404');
      expect(response.ResponseParameters).toMatchObject({
        'method.response.header.X-RateLimit-Limit': "'60'",
        'method.response.header.X-RateLimit-Remaining': "'60'",
        'method.response.header.Content-Type': "'application/json'",
      });
      const body = response.ResponseTemplates['application/json'] as string;
      expect(body).toContain('#set($context.responseOverride.header.X-RateLimit-Reset = "$minuteEndsAt")');
      // Each resource's answer names the methods that path takes (its other methods in the template).
      const resource = resourcePath(template(), method.Properties!.ResourceId);
      const methods = Object.values(resourcesOfType(template(), 'AWS::ApiGateway::Method'))
        .filter(
          (other) =>
            other.Properties!.HttpMethod !== 'ANY' &&
            JSON.stringify(other.Properties!.ResourceId) === JSON.stringify(method.Properties!.ResourceId),
        )
        .map((other) => other.Properties!.HttpMethod as string);
      expect(JSON.parse(body.slice(body.indexOf('{')))).toEqual({
        code: 'ROUTE_NOT_FOUND',
        message: routeNotFoundAnswer({ resource, methods }).message,
        status: 404,
      });
      if (resource === '/inventory/{petId}')
        expect(JSON.parse(body.slice(body.indexOf('{'))).message).toBe(
          '/v1/inventory/{petId} takes GET and PATCH only; no operation answers another method there. The reference at /v1/docs lists every operation.',
        );
      if (resource === '/{proxy+}') expect(JSON.parse(body.slice(body.indexOf('{'))).message).toBe(NO_SUCH_PATH_MESSAGE);

      // Rendered at 10:15:42.123: the mapped headers, then the template's overrides, as the client gets them.
      const requestTimeEpoch = Date.UTC(2026, 10, 22, 10, 15, 42, 123);
      const context = gatewayContext({ domainName: 'abc123defg.execute-api.eu-west-1.amazonaws.com', requestTimeEpoch });
      expect(JSON.parse(render(body, context))).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
      const headers = {
        ...Object.fromEntries(
          Object.entries(response.ResponseParameters as Record<string, string>).map(([name, value]) => [
            name.replace('method.response.header.', ''),
            value.slice(1, -1),
          ]),
        ),
        ...context.context.responseOverride.header,
      };
      const requestSecond = Math.floor(requestTimeEpoch / 1000);
      expect(expectAgreeingRateLimitFields(headers, { from: requestSecond, to: requestSecond })).toEqual([
        { name: 'failed-authentications', quota: 60, seconds: 60, remaining: 60, secondsLeft: 18 },
      ]);
    }
  });

  it.each(apiRoutes.map((route) => [route.operationId, route] as const))(
    'sends %s to its own function, behind the authorizer, requiring an API key',
    (_, route) => {
      const [authorizerId] = onlyResource(template(), 'AWS::ApiGateway::Authorizer');
      const method = Object.values(resourcesOfType(template(), 'AWS::ApiGateway::Method')).find(
        (candidate) =>
          candidate.Properties!.HttpMethod === route.method &&
          resourcePath(template(), candidate.Properties!.ResourceId) === route.resource,
      );
      expect(method?.Properties).toMatchObject({
        OperationName: route.operationId,
        AuthorizationType: 'CUSTOM',
        AuthorizerId: { Ref: authorizerId },
        ApiKeyRequired: true,
        Integration: { Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' },
      });
      expect(referencedIds(method!.Properties!.Integration.Uri)).toContain(functionId(routeDescription(route.operationId)));
    },
  );

  it.each(apiRoutes.map((route) => [route.operationId, route] as const))(
    'streams %s through InvokeWithResponseStream in transfer mode STREAM if, and only if, its route is streamed',
    (operationId, route) => {
      const method = Object.values(resourcesOfType(template(), 'AWS::ApiGateway::Method')).find(
        (candidate) => candidate.Properties!.OperationName === operationId,
      )!;
      const { Integration } = method.Properties!;
      const uri = JSON.stringify(Integration.Uri);
      const [, fn] = functionWithDescription(template(), routeDescription(operationId));
      if (route.streamed) {
        expect(Integration).toMatchObject({
          Type: 'AWS_PROXY',
          ResponseTransferMode: 'STREAM',
          TimeoutInMillis: fn.Properties!.Timeout * 1_000,
        });
        expect(uri).toMatch(/:lambda:path\/2021-11-15\/functions\/".*"\/response-streaming-invocations"/);
      } else {
        expect(Integration.ResponseTransferMode).toBeUndefined();
        expect(Integration.TimeoutInMillis).toBeUndefined();
        expect(uri).toMatch(/:lambda:path\/2015-03-31\/functions\/".*"\/invocations"/);
      }
    },
  );

  it('streams the listing, and only the listing, with a function that may run 3 minutes', () => {
    expect(apiRoutes.filter((route) => route.streamed).map((route) => route.operationId)).toEqual(['listInventory']);
    expect(functionWithDescription(template(), routeDescription('listInventory'))[1].Properties!.Timeout).toBe(180);
  });

  it('authorizes every request with the Lambda REQUEST authorizer, uncached, its identity source the source address', () => {
    const [authorizerId, authorizer] = onlyResource(template(), 'AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      // Always present, so API Gateway never answers on its own: a request without Authorization reaches the authorizer
      // and gets its 401 with the address window's X-RateLimit-* (SPEC 8, rule 1), which no static template can compute.
      IdentitySource: 'context.identity.sourceIp',
      // No results cache: a kept Deny would repeat its values, and caching needs the Authorization header as an identity source.
      AuthorizerResultTtlInSeconds: 0,
      RestApiId: { Ref: restApiId() },
    });
    expect(referencedIds(authorizer.Properties!.AuthorizerUri)).toContain(functionId(AUTHORIZER_DESCRIPTION));
    // Every method that takes a key goes through it: one per operation of the API, and no other kind of authorization.
    const keyed = Object.values(resourcesOfType(template(), 'AWS::ApiGateway::Method')).filter(
      (method) => method.Properties!.AuthorizationType !== 'NONE' || method.Properties!.ApiKeyRequired === true,
    );
    expect(keyed).toHaveLength(apiRoutes.length);
    for (const method of keyed)
      expect(method.Properties).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId }, ApiKeyRequired: true });
  });

  it('lets API Gateway invoke each function only for its own method on this stage, or as the authorizer', () => {
    const all = Object.values(resourcesOfType(template(), 'AWS::Lambda::Permission'));
    // The one other invoker is EventBridge, for the reservation sweep's schedule.
    const permissions = all.filter((permission) => permission.Properties!.Principal !== 'events.amazonaws.com');
    expect(all).toHaveLength(apiRoutes.length + 3);
    expect(permissions).toHaveLength(apiRoutes.length + 2);
    const [stageId] = stageResource();
    for (const route of [...apiRoutes, healthRoute]) {
      const own = permissions.filter(
        (permission) => referencedId(permission.Properties!.FunctionName) === functionId(routeDescription(route.operationId)),
      );
      expect(own).toHaveLength(1);
      expect(own[0]!.Properties).toMatchObject({ Action: 'lambda:InvokeFunction', Principal: 'apigateway.amazonaws.com' });
      const sourceArn = own[0]!.Properties!.SourceArn['Fn::Join'][1] as unknown[];
      expect(sourceArn.slice(-3)).toEqual(['/', { Ref: stageId }, `/${route.method}${route.resource.replace(/\{[^}]+\}/g, '*')}`]);
    }
    const [authorizerId] = onlyResource(template(), 'AWS::ApiGateway::Authorizer');
    const authorizerPermissions = permissions.filter(
      (permission) => referencedId(permission.Properties!.FunctionName) === functionId(AUTHORIZER_DESCRIPTION),
    );
    expect(authorizerPermissions).toHaveLength(1);
    expect(authorizerPermissions[0]!.Properties!.SourceArn['Fn::Join'][1].slice(-2)).toEqual(['/authorizers/', { Ref: authorizerId }]);
  });

  it.each(Object.entries(gatewayResponses))(
    'answers %s with the contract Error body, JSON content type, its headers and X-Request-Id',
    (type, response) => {
      const [, gatewayResponse] = onlyResource(template(), 'AWS::ApiGateway::GatewayResponse', { ResponseType: type });
      expect(gatewayResponse.Properties!.StatusCode).toBe(String(response.status));
      const headers = { ...JSON_HEADERS, ...('headers' in response ? response.headers : {}) };
      const fromAuthorizer = ('fromAuthorizer' in response ? response.fromAuthorizer : undefined) ?? {};
      expect(gatewayResponse.Properties!.ResponseParameters).toEqual({
        ...Object.fromEntries(Object.entries(headers).map(([name, value]) => [`gatewayresponse.header.${name}`, staticHeaderValue(value)])),
        ...Object.fromEntries(
          Object.entries(fromAuthorizer).map(([name, key]) => [`gatewayresponse.header.${name}`, `context.authorizer.${key}`]),
        ),
        // Mapped from the context, not quoted: the request's own id, as the functions' answers carry it.
        'gatewayresponse.header.X-Request-Id': 'context.requestId',
      });
      expect(gatewayResponse.Properties!.ResponseParameters).toMatchObject({
        'gatewayresponse.header.X-Content-Type-Options': "'nosniff'",
        'gatewayresponse.header.Content-Security-Policy': "'default-src \\'none\\'; frame-ancestors \\'none\\''",
        'gatewayresponse.header.Strict-Transport-Security': "'max-age=31536000; includeSubDomains'",
      });
      expect(Object.keys(gatewayResponse.Properties!.ResponseParameters).some((name) => /access-control/i.test(name))).toBe(false);
      const templates = gatewayResponse.Properties!.ResponseTemplates;
      expect(Object.keys(templates)).toEqual(['application/json']);
      expect(JSON.parse(templates['application/json'])).toEqual({
        code: response.code,
        message: response.message,
        status: response.status,
      });
    },
  );

  it('installs exactly the gateway responses of functions/http/gateway-responses.ts, with Retry-After on 429 and 503', () => {
    const installed = Object.values(resourcesOfType(template(), 'AWS::ApiGateway::GatewayResponse'));
    expect(installed.map((response) => response.Properties!.ResponseType).sort()).toEqual(Object.keys(gatewayResponses).sort());
    for (const response of installed.filter((candidate) => ['429', '503'].includes(candidate.Properties!.StatusCode))) {
      expect(response.Properties!.ResponseParameters['gatewayresponse.header.Retry-After']).toMatch(/^'\d+'$/);
    }
  });

  it('carries RateLimit on every gateway response with X-RateLimit-*, agreeing with them, and RateLimit-Policy where it states a limit', () => {
    const staticHeaders = (type: string) =>
      Object.fromEntries(
        Object.entries(
          onlyResource(template(), 'AWS::ApiGateway::GatewayResponse', { ResponseType: type })[1].Properties!.ResponseParameters as Record<
            string,
            string
          >,
        )
          .filter(([, value]) => value.startsWith("'"))
          .map(([name, value]) => [name.replace('gatewayresponse.header.', ''), value.slice(1, -1).replaceAll("\\'", "'")]),
      );
    const withRateLimit = Object.keys(gatewayResponses).filter((type) =>
      Object.keys(staticHeaders(type)).some((name) => name.startsWith('X-RateLimit-')),
    );
    expect(withRateLimit.sort()).toEqual(
      [
        'EXPIRED_TOKEN',
        'INVALID_API_KEY',
        'INVALID_SIGNATURE',
        'MISSING_AUTHENTICATION_TOKEN',
        'QUOTA_EXCEEDED',
        'RESOURCE_NOT_FOUND',
        'THROTTLED',
        'UNAUTHORIZED',
      ].sort(),
    );
    const address = (remaining: number) => [{ name: 'failed-authentications', quota: 60, seconds: 60, remaining }];
    for (const type of [
      'EXPIRED_TOKEN',
      'INVALID_API_KEY',
      'INVALID_SIGNATURE',
      'MISSING_AUTHENTICATION_TOKEN',
      'RESOURCE_NOT_FOUND',
      'UNAUTHORIZED',
    ])
      expect(expectAgreeingRateLimitFields(staticHeaders(type)), type).toEqual(address(60));
    // A usage plan's refusals: one template for every plan, so no quota to state; the throttle's bucket refills within a second.
    expect(rateLimitWindowsOf(staticHeaders('THROTTLED'))).toEqual([{ name: 'burst', remaining: 0, secondsLeft: 1 }]);
    expect(rateLimitWindowsOf(staticHeaders('QUOTA_EXCEEDED'))).toEqual([{ name: 'day', remaining: 0 }]);
    for (const type of ['THROTTLED', 'QUOTA_EXCEEDED']) expect(staticHeaders(type)).toMatchObject({ 'X-RateLimit-Remaining': '0' });
  });

  it("maps the authorizer Deny's X-RateLimit-* into the 401 (ACCESS_DENIED); API Gateway's own 401 (UNAUTHORIZED, which the uncached authorizer's identity source never leaves to it) states the address window uncounted", () => {
    const parameters = (type: string) =>
      onlyResource(template(), 'AWS::ApiGateway::GatewayResponse', { ResponseType: type })[1].Properties!;
    expect(parameters('ACCESS_DENIED')).toMatchObject({
      StatusCode: '401',
      ResponseParameters: {
        'gatewayresponse.header.X-RateLimit-Limit': 'context.authorizer.rateLimitLimit',
        'gatewayresponse.header.X-RateLimit-Remaining': 'context.authorizer.rateLimitRemaining',
        'gatewayresponse.header.X-RateLimit-Reset': 'context.authorizer.rateLimitReset',
        'gatewayresponse.header.RateLimit-Policy': 'context.authorizer.rateLimitPolicy',
        'gatewayresponse.header.RateLimit': 'context.authorizer.rateLimit',
      },
    });
    expect(parameters('UNAUTHORIZED')).toMatchObject({
      StatusCode: '401',
      ResponseParameters: {
        'gatewayresponse.header.X-RateLimit-Limit': "'60'",
        'gatewayresponse.header.X-RateLimit-Remaining': "'60'",
      },
    });
    expect(parameters('UNAUTHORIZED').ResponseParameters['gatewayresponse.header.Retry-After']).toBeUndefined();
    expect(JSON.parse(parameters('UNAUTHORIZED').ResponseTemplates['application/json'])).toMatchObject({
      code: 'UNAUTHORIZED',
      status: 401,
    });
  });

  describe('the web ACL on the stage', () => {
    const webAcl = () => onlyResource(template(), 'AWS::WAFv2::WebACL');

    it('is associated with this stage', () => {
      const [webAclId] = webAcl();
      const [, association] = onlyResource(template(), 'AWS::WAFv2::WebACLAssociation');
      expect(association.Properties!.WebACLArn).toEqual({ 'Fn::GetAtt': [webAclId, 'Arn'] });
      expect(JSON.stringify(association.Properties!.ResourceArn)).toContain(stageResource()[0]);
    });

    it(`blocks a source address past ${WAF_REQUESTS_PER_ADDRESS_PER_MINUTE} requests a minute with the 429 Error body, then AWS's known-bad-inputs rules`, () => {
      const { Scope, DefaultAction, Rules, CustomResponseBodies } = webAcl()[1].Properties!;
      expect([Scope, DefaultAction]).toEqual(['REGIONAL', { Allow: {} }]);
      expect(Rules).toHaveLength(2);
      expect(Rules[0]).toMatchObject({
        Name: 'RequestsPerSourceAddress',
        Priority: 0,
        Statement: { RateBasedStatement: { Limit: WAF_REQUESTS_PER_ADDRESS_PER_MINUTE, EvaluationWindowSec: 60, AggregateKeyType: 'IP' } },
        Action: { Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'rateLimited' } } },
      });
      expect(Rules[0].Action.Block.CustomResponse.ResponseHeaders).toEqual(
        expect.arrayContaining([
          { Name: 'Retry-After', Value: '60' },
          { Name: 'X-RateLimit-Remaining', Value: '0' },
        ]),
      );
      const wafHeaders = Object.fromEntries(
        (Rules[0].Action.Block.CustomResponse.ResponseHeaders as { Name: string; Value: string }[]).map(({ Name, Value }) => [Name, Value]),
      );
      // WAF's window slides: no reset to state, so no X-RateLimit-Reset and no `t`.
      expect(expectAgreeingRateLimitFields(wafHeaders)).toEqual([
        { name: WAF_RATE_POLICY, quota: WAF_REQUESTS_PER_ADDRESS_PER_MINUTE, seconds: 60, remaining: 0 },
      ]);
      expect(JSON.parse(CustomResponseBodies.rateLimited.Content)).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', status: 429 });
      expect(Rules[1]).toMatchObject({
        Name: 'AWSManagedRulesKnownBadInputsRuleSet',
        Priority: 1,
        Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesKnownBadInputsRuleSet' } },
        OverrideAction: { None: {} },
      });
      // Twice the Business plan's minute (fixed windows admit that much within 60 s), and room beside it.
      expect(WAF_REQUESTS_PER_ADDRESS_PER_MINUTE).toBeGreaterThanOrEqual(4 * PLAN_LIMITS.business.perMinute);
    });

    it('raises an alarm on the blocked requests of each rule', () => {
      const alarms = Object.values(resourcesOfType(template(), 'AWS::CloudWatch::Alarm')).filter(
        (alarm) => alarm.Properties!.Namespace === 'AWS/WAFV2',
      );
      expect(alarms.map((alarm) => alarm.Properties!.MetricName)).toEqual(['BlockedRequests', 'BlockedRequests']);
      const rules = alarms.map(
        (alarm) => alarm.Properties!.Dimensions.find((dimension: { Name: string }) => dimension.Name === 'Rule').Value,
      );
      expect(rules).toEqual([
        `${STACK_NAMES[stage]}-RequestsPerSourceAddress`,
        `${STACK_NAMES[stage]}-AWSManagedRulesKnownBadInputsRuleSet`,
      ]);
      if (stage === 'prod') for (const alarm of alarms) expect(alarm.Properties!.AlarmActions).toHaveLength(1);
    });
  });

  describe.each(Object.entries(PLAN_LIMITS))('the %s usage plan', (plan, limits) => {
    const usagePlan = () =>
      onlyResource(template(), 'AWS::ApiGateway::UsagePlan', { UsagePlanName: `${STACK_NAMES[stage]}-${plan}` })[1].Properties!;

    it("has the plan's daily quota", () => {
      expect(usagePlan().Quota).toEqual({ Limit: limits.perDay, Period: 'DAY' });
    });

    it("throttles no tighter than the plan's per-minute rate, as the shared backstop rule says", () => {
      const { RateLimit, BurstLimit } = usagePlan().Throttle;
      expect(RateLimit * 60).toBeGreaterThanOrEqual(limits.perMinute);
      // A full minute's allowance on each side of a window boundary.
      expect(BurstLimit).toBeGreaterThanOrEqual(2 * limits.perMinute);
      const backstop = edgeBackstop(limits);
      expect({ RateLimit, BurstLimit, quota: usagePlan().Quota.Limit }).toEqual({
        RateLimit: backstop.rateLimit,
        BurstLimit: backstop.burstLimit,
        quota: backstop.quotaPerDay,
      });
    });

    it('applies to the v1 stage of this API', () => {
      const [stageId] = stageResource();
      expect(usagePlan().ApiStages).toEqual([{ ApiId: { Ref: restApiId() }, Stage: { Ref: stageId }, Throttle: {} }]);
    });
  });

  it('has usage plans for Free, Pro and Business only: enterprise plans are made by the key tool', () => {
    const names = Object.values(resourcesOfType(template(), 'AWS::ApiGateway::UsagePlan')).map((plan) => plan.Properties!.UsagePlanName);
    expect(names.sort()).toEqual(['business', 'free', 'pro'].map((plan) => `${STACK_NAMES[stage]}-${plan}`));
  });

  it("sets the account's API Gateway logging role and keeps it when the stack goes", () => {
    const [, account] = onlyResource(template(), 'AWS::ApiGateway::Account');
    expect(account.DeletionPolicy).toBe('Retain');
    expect(resourcesOfType(template(), 'AWS::IAM::Role')[referencedId(account.Properties!.CloudWatchRoleArn)!]!.DeletionPolicy).toBe(
      'Retain',
    );
  });
});
