import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  ApiKeySourceType,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  MockIntegration,
  PassthroughBehavior,
  LogGroupLogDestination,
  MethodLoggingLevel,
  Period,
  RequestAuthorizer,
  ResponseTransferMode,
  ResponseType,
  RestApi,
  AuthorizationType,
  type IResource,
  Method,
  type UsagePlan,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { edgeBackstop, PLAN_LIMITS } from '../functions/domain/plans.ts';
import { gatewayErrorBody, gatewayResponses, routeNotFoundAnswer } from '../functions/http/gateway-responses.ts';
import { JSON_HEADERS } from '../functions/http/json.ts';
import { REQUEST_ID_HEADER } from '../functions/http/request-context.ts';
import { functionTimeoutSeconds, type ApiRoute } from '../functions/routes.ts';
import { API_STAGE_NAME } from './deployments.ts';
import { PublishedContract, publishedPageMethodOptions } from './published-contract.ts';
import { UNCOUNTED_RATE_LIMIT_PARAMETERS, UNCOUNTED_RATE_LIMIT_TEMPLATE } from './rate-limit-templates.ts';
import { staticHeaderValue } from './static-header-value.ts';

export type ContractPlan = keyof typeof PLAN_LIMITS;

export interface ApiOperation {
  route: ApiRoute;
  handler: IFunction;
}

/** Requests per second the unauthenticated health check takes at most, across all callers; a probe a minute needs far less. */
export const HEALTH_THROTTLE = { rateLimit: 10, burstLimit: 20 } as const;

export interface InventoryApiProps {
  /** GET /health: no authorizer and no key, throttled on its own (HEALTH_THROTTLE). */
  health: { route: Pick<ApiRoute, 'operationId' | 'method' | 'resource'>; handler: IFunction };
  /** Also the ApiName dimension of the API's metrics, so it differs between stages. */
  restApiName: string;
  authorizerHandler: IFunction;
  operations: readonly ApiOperation[];
  logRetention: RetentionDays;
  logRemovalPolicy: RemovalPolicy;
  /** The Sunset of getPetById on this stage, as its reference and openapi.json state it; the default sunset when undefined. */
  petsSunset: Date | undefined;
}

/**
 * One JSON object per request. Who called is the key's public id (the authorizer's
 * principalId), never the key: with API key source AUTHORIZER, $context.identity.apiKey
 * would be the secret itself.
 */
const ACCESS_LOG_FIELDS = {
  requestId: AccessLogField.contextRequestId(),
  extendedRequestId: AccessLogField.contextExtendedRequestId(),
  requestTimeEpoch: AccessLogField.contextRequestTimeEpoch(),
  sourceIp: AccessLogField.contextIdentitySourceIp(),
  userAgent: AccessLogField.contextIdentityUserAgent(),
  httpMethod: AccessLogField.contextHttpMethod(),
  resourcePath: AccessLogField.contextResourcePath(),
  path: AccessLogField.contextPath(),
  status: AccessLogField.contextStatus(),
  gatewayResponseType: AccessLogField.contextErrorResponseType(),
  responseLength: AccessLogField.contextResponseLength(),
  responseLatency: AccessLogField.contextResponseLatency(),
  integrationLatency: AccessLogField.contextIntegrationLatency(),
  integrationStatus: AccessLogField.contextIntegrationStatus(),
  authorizerLatency: AccessLogField.contextAuthorizerLatency(),
  keyId: AccessLogField.contextAuthorizerPrincipalId(),
  plan: AccessLogField.contextAuthorizer('plan'),
  xrayTraceId: AccessLogField.contextXrayTraceId(),
};

/** API Gateway's parameter-mapping expression for the request's id ($context.requestId). */
export const GATEWAY_REQUEST_ID = 'context.requestId';

/** Every method's settings on the stage; a method with settings of its own restates them. */
const STAGE_METHOD_SETTINGS = {
  metricsEnabled: true,
  // Execution logs for errors only, and never request or response bodies (they would hold the keys).
  loggingLevel: MethodLoggingLevel.ERROR,
  dataTraceEnabled: false,
} as const;

/**
 * The REST API at stage `v1`: a method and a function per route of functions/routes.ts, all
 * behind the API key authorizer and metered by the plans' usage plans; every answer the
 * gateway gives on its own is the contract's Error JSON (functions/http/gateway-responses.ts).
 */
export class InventoryApi extends Construct {
  readonly restApi: RestApi;
  readonly usagePlans: Readonly<Record<ContractPlan, UsagePlan>>;
  /** One JSON object per request (ACCESS_LOG_FIELDS). */
  readonly accessLogs: LogGroup;
  /** The operations as given, each with the API Gateway method that serves it (its per-method metrics). */
  readonly operations: readonly (ApiOperation & { method: Method })[];

  constructor(scope: Construct, id: string, props: InventoryApiProps) {
    super(scope, id);
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: props.logRetention, removalPolicy: props.logRemovalPolicy });
    this.accessLogs = accessLogs;

    this.restApi = new RestApi(this, 'RestApi', {
      restApiName: props.restApiName,
      description: 'Pet Store inventory API',
      // Clients call the regional endpoint directly; an edge-optimized one adds a CloudFront hop we do not configure.
      endpointTypes: [EndpointType.REGIONAL],
      // Usage plans meter the key the authorizer returns (usageIdentifierKey), read from Authorization: Bearer.
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      // API Gateway writes access and execution logs only with an account-level role. Retained: the
      // setting is per account and region, so the other stage (or another API) may be relying on it.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: API_STAGE_NAME,
        tracingEnabled: true,
        ...STAGE_METHOD_SETTINGS,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
        methodOptions: {
          ...publishedPageMethodOptions(STAGE_METHOD_SETTINGS),
          // Anyone may call the health check, so a flood of it is cut at the edge, apart from the keyed operations.
          [`${props.health.route.resource}/${props.health.route.method}`]: {
            ...STAGE_METHOD_SETTINGS,
            throttlingRateLimit: HEALTH_THROTTLE.rateLimit,
            throttlingBurstLimit: HEALTH_THROTTLE.burstLimit,
          },
        },
      },
    });

    // API Gateway creates this group on its first error log, without retention, unless it exists already.
    const executionLogs = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.restApi.restApiId}/${API_STAGE_NAME}`,
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });
    this.restApi.deploymentStage.node.addDependency(executionLogs);

    // Not cached (a TTL of 0), identity source the source address, always present: API Gateway calls the authorizer on
    // every request. With the Authorization header as an identity source, as caching needs, API Gateway would answer a
    // request without it on its own, from a static template that cannot state X-RateLimit-Reset (SPEC 8, rule 1), and a
    // kept Deny would repeat its window's values. The authorizer keeps what it read of a key for a minute instead
    // (functions/domain/known-api-keys.ts), and the counting write refuses a revoked or banned key on its next request.
    const authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: props.authorizerHandler,
      identitySources: [IdentitySource.context('identity.sourceIp')],
      resultsCacheTtl: Duration.seconds(0),
    });

    this.operations = props.operations.map((operation) => {
      const { route, handler } = operation;
      // A streamed route: InvokeWithResponseStream, and API Gateway passes the function's prelude and body on as
      // they come; it waits as long as the function may run (streaming allows up to 15 minutes, not 29 s).
      const streaming = route.streamed
        ? { responseTransferMode: ResponseTransferMode.STREAM, timeout: Duration.seconds(functionTimeoutSeconds(route)) }
        : {};
      const method = this.restApi.root
        .resourceForPath(route.resource)
        .addMethod(route.method, new LambdaIntegration(handler, { allowTestInvoke: false, ...streaming }), {
          operationName: route.operationId,
          authorizer,
          apiKeyRequired: true,
        });
      Validations.of(method).acknowledge({
        id: 'AwsSolutions-COG4',
        reason:
          'The contract authenticates with API keys (Authorization: Bearer), checked by the Lambda REQUEST authorizer on this method; there are no Cognito users.',
      });
      return { ...operation, method };
    });

    new PublishedContract(this, 'PublishedContract', { restApi: this.restApi, petsSunset: props.petsSunset });

    const healthMethod = this.restApi.root
      .resourceForPath(props.health.route.resource)
      .addMethod(props.health.route.method, new LambdaIntegration(props.health.handler, { allowTestInvoke: false }), {
        operationName: props.health.route.operationId,
        apiKeyRequired: false,
      });
    Validations.of(healthMethod).acknowledge(
      {
        id: 'AwsSolutions-APIG4',
        reason:
          'The health check is public by design (load balancers, uptime probes): it reveals only whether the store answers, writes nothing, and is throttled on its own.',
      },
      {
        id: 'AwsSolutions-COG4',
        reason: 'The health check is public by design, for load balancers and uptime probes that hold no key; there are no Cognito users.',
      },
    );

    this.answerUnknownRoutes();

    for (const [type, response] of Object.entries(gatewayResponses)) {
      this.restApi.addGatewayResponse(type, {
        type: ResponseType.of(type),
        statusCode: String(response.status),
        responseHeaders: {
          ...Object.fromEntries(
            Object.entries({ ...JSON_HEADERS, ...('headers' in response ? response.headers : {}) }).map(([name, value]) => [
              name,
              staticHeaderValue(value),
            ]),
          ),
          // Not a static value: API Gateway's id of this request, the one its access log records.
          [REQUEST_ID_HEADER]: GATEWAY_REQUEST_ID,
          ...Object.fromEntries(
            Object.entries(('fromAuthorizer' in response ? response.fromAuthorizer : undefined) ?? {}).map(([name, key]) => [
              name,
              `context.authorizer.${key}`,
            ]),
          ),
        },
        templates: { 'application/json': JSON.stringify(gatewayErrorBody(response)) },
      });
    }

    const usagePlan = (plan: ContractPlan) => {
      const backstop = edgeBackstop(PLAN_LIMITS[plan]);
      return this.restApi.addUsagePlan(`UsagePlan-${plan}`, {
        name: `${props.restApiName}-${plan}`,
        description: `Edge backstop of the ${plan} plan; the contract's limits are counted by the service.`,
        quota: { limit: backstop.quotaPerDay, period: Period.DAY },
        throttle: { rateLimit: backstop.rateLimit, burstLimit: backstop.burstLimit },
        apiStages: [{ api: this.restApi, stage: this.restApi.deploymentStage }],
      });
    };
    this.usagePlans = { free: usagePlan('free'), pro: usagePlan('pro'), business: usagePlan('business') };

    Validations.of(this.restApi.node.findChild('CloudWatchRole')).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason:
        'The account-level role API Gateway needs to write logs; this AWS-managed policy is the documented one for it and only allows writing logs.',
    });
    Validations.of(this.restApi.node.findChild('Resource')).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason:
        "Requests are validated in the functions (zod) after the plan limiter, so a bad body gets the contract's 400 Error with X-RateLimit-* headers, the same locally and on AWS.",
    });
  }

  /**
   * 404 ROUTE_NOT_FOUND for every path and method no operation has, from a mock integration (no
   * function, no key): ANY on every resource the API has and a `{proxy+}` under the root, which
   * API Gateway picks only when no method of its own matches. Unlike the static gateway response
   * it replaces (MISSING_AUTHENTICATION_TOKEN), a mapping template can compute X-RateLimit-Reset
   * and RateLimit's `t`; and each resource's says which methods that path takes.
   */
  private answerUnknownRoutes(): void {
    const resources: IResource[] = [];
    const collect = (resource: IResource) => {
      resources.push(resource);
      for (const child of resource.node.children)
        if (child instanceof Construct && 'addMethod' in child && 'resourceId' in child) collect(child as unknown as IResource);
    };
    collect(this.restApi.root);
    resources.push(this.restApi.root.addResource('{proxy+}'));
    const reason =
      "Answers 404 ROUTE_NOT_FOUND to paths and methods no operation has, from a mock integration: it runs no function and reads no data, and the web ACL's rate rule bounds what one address sends.";
    for (const resource of resources) {
      const methods = resource.node.children.flatMap((child) => (child instanceof Method ? [child.httpMethod] : []));
      const answer = routeNotFoundAnswer({ resource: resource.path, methods });
      const integration = new MockIntegration({
        passthroughBehavior: PassthroughBehavior.NEVER,
        requestTemplates: { 'application/json': '{"statusCode": 404}' },
        integrationResponses: [
          {
            statusCode: '404',
            responseParameters: UNCOUNTED_RATE_LIMIT_PARAMETERS,
            responseTemplates: { 'application/json': `${UNCOUNTED_RATE_LIMIT_TEMPLATE}${JSON.stringify(gatewayErrorBody(answer))}` },
          },
        ],
      });
      const method = resource.addMethod('ANY', integration, {
        authorizationType: AuthorizationType.NONE,
        apiKeyRequired: false,
        methodResponses: [
          {
            statusCode: '404',
            responseParameters: Object.fromEntries(Object.keys(UNCOUNTED_RATE_LIMIT_PARAMETERS).map((name) => [name, true])),
          },
        ],
      });
      Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason }, { id: 'AwsSolutions-COG4', reason });
    }
  }

  /** The contract's base address: ends in /v1, without a trailing slash, so `$URL/inventory` is a path. */
  get baseUrl(): string {
    const stack = Stack.of(this);
    return `https://${this.restApi.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}/${API_STAGE_NAME}`;
  }
}
