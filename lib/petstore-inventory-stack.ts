import { Annotations, CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { Metric, Stats } from 'aws-cdk-lib/aws-cloudwatch';
import { FilterPattern, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { ENV, readPetsSunset } from '../functions/config.ts';
import { AUTHORIZER_FAILURE_LOG_MESSAGE } from '../functions/handlers/authorizer-handler.ts';
import { LOG_LEVEL_VARIABLE, METRIC_NAMESPACE, SERVICE_METRICS } from '../functions/logger.ts';
import { apiRoutes, authorizerLambda, functionTimeoutSeconds, healthRoute, lambdaOf, type ApiRoute } from '../functions/routes.ts';
import { API_STAGE_NAME, STACK_NAMES, STACK_OUTPUTS, type DeploymentStage } from './deployments.ts';
import { EdgeShield } from './edge-shield.ts';
import { InventoryApi, type ContractPlan } from './inventory-api.ts';
import { ALARM_PERIOD, OperationalAlarms, type MonitoredFunction, type MonitoredTable, type ServiceSignal } from './operational-alarms.ts';
import { OperationsDashboard } from './operations-dashboard.ts';
import { ServiceFunction } from './service-function.ts';
import { ReservationSweep } from './reservation-sweep.ts';
import { ServiceTables } from './service-tables.ts';
import { ROUTE_TABLE_ACCESS, type RouteTableAccess } from './table-access.ts';
import { InventoryEvents, readWebhookSubscriptions, WEBHOOK_URLS_CONTEXT_KEY } from './inventory-events.ts';
import { HISTORY_STREAM, InventoryHistory } from './inventory-history.ts';
import { DEFAULT_HISTORY_RETENTION_DAYS } from '../functions/domain/vocabulary.ts';

export interface StageSettings {
  stage: DeploymentStage;
  /** Tables and logs survive the stack's deletion, tables refuse deletion, the stack refuses `cdk destroy`. */
  retainData: boolean;
  logRetention: RetentionDays;
  /** Alarms notify an SNS topic; elsewhere they are only visible in CloudWatch. */
  notifyAlarms: boolean;
  /** The functions' LOG_LEVEL (functions/logger.ts): raise it to quiet the logs; metric lines are never filtered. */
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /** Days each pet's history records are kept (HISTORY_RETENTION_DAYS). */
  historyRetentionDays: number;
}

export const STAGE_SETTINGS: Readonly<Record<DeploymentStage, StageSettings>> = {
  // Staging is disposable: tear it down and redeploy it from any commit.
  staging: {
    stage: 'staging',
    retainData: false,
    logRetention: RetentionDays.TWO_WEEKS,
    notifyAlarms: false,
    logLevel: 'INFO',
    historyRetentionDays: DEFAULT_HISTORY_RETENTION_DAYS,
  },
  // Three months of logs covers an incident review or a client's dispute about a month's usage.
  prod: {
    stage: 'prod',
    retainData: true,
    logRetention: RetentionDays.THREE_MONTHS,
    notifyAlarms: true,
    logLevel: 'INFO',
    historyRetentionDays: DEFAULT_HISTORY_RETENTION_DAYS,
  },
};

export const PETS_SUNSET_CONTEXT_KEY = 'petsSunsetDate';

const USAGE_PLAN_OUTPUTS = {
  free: STACK_OUTPUTS.usagePlanIdFree,
  pro: STACK_OUTPUTS.usagePlanIdPro,
  business: STACK_OUTPUTS.usagePlanIdBusiness,
} as const satisfies Record<ContractPlan, string>;

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

type ServiceMetric = (typeof SERVICE_METRICS)[keyof typeof SERVICE_METRICS];

/** What an alarm on each of the functions' own metrics tells the operator. */
const SERVICE_METRIC_MEANINGS: Readonly<Record<ServiceMetric, string>> = {
  [SERVICE_METRICS.storeUnavailable]: 'DynamoDB stayed throttled or unreachable and clients got 503',
  [SERVICE_METRICS.writeContended]:
    'writes met other transactions on the same items (a hot pet) until their time ran out and clients got 503: nothing was written',
  [SERVICE_METRICS.usageCountingUnavailable]: 'requests were served without plan-limit counting (fail-open)',
  [SERVICE_METRICS.streamAborted]:
    'streamed answers were cut after their first byte (store failure or deadline mid-stream): clients got invalid JSON',
};

/** The routes whose writes retry in rounds when they meet other transactions (functions/domain/contention.ts). */
const WRITES_IN_ROUNDS: ReadonlySet<ApiRoute['inventoryAccess']> = new Set([
  'update',
  'adjust',
  'adjustBatch',
  'reserve',
  'commitReservation',
  'releaseReservation',
]);

/** The metrics a route's function can emit: StreamAborted only where the answer is streamed, WriteContended where writes retry in rounds. */
export function serviceMetricsOf(route: Pick<ApiRoute, 'streamed' | 'inventoryAccess'>): ServiceMetric[] {
  return Object.values(SERVICE_METRICS).filter(
    (metricName) =>
      (route.streamed || metricName !== SERVICE_METRICS.streamAborted) &&
      (WRITES_IN_ROUNDS.has(route.inventoryAccess) || metricName !== SERVICE_METRICS.writeContended),
  );
}

export interface PetStoreInventoryStackProps extends StackProps {
  settings: StageSettings;
}

/** One stage of the service: its tables, functions, API, usage plans, alarms and outputs. */
export class PetStoreInventoryStack extends Stack {
  constructor(scope: Construct, id: string, props: PetStoreInventoryStackProps) {
    const { settings, ...stackProps } = props;
    super(scope, id, {
      stackName: STACK_NAMES[settings.stage],
      description: `Pet Store inventory API, ${settings.stage} stage`,
      terminationProtection: settings.retainData,
      ...stackProps,
    });
    // CDK warns past 80% of CloudFormation's 1,000,000 bytes; the stage's two published pages, kept in
    // mapping templates, are about 70% of the template. test/stacks/infra/deployments.test.ts holds the
    // template within 90% instead, and the pages' move out of the template is the way to more room.
    Annotations.of(this).acknowledgeWarning(
      '@aws-cdk/core:Stack.templateSize',
      'Within 90% of the limit, held by a test; the published pages take most of it.',
    );
    const dataRemovalPolicy = settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    const tables = new ServiceTables(this, 'Tables', { retainData: settings.retainData });

    // functions/config.ts reads all three names in every function, so each gets them; what it may do with each table is granted below.
    const environment: Record<string, string> = {
      [ENV.inventoryTable]: tables.inventory.tableName,
      [ENV.apiKeysTable]: tables.apiKeys.tableName,
      [ENV.usageCountersTable]: tables.usageCounters.tableName,
      [ENV.idempotencyRecordsTable]: tables.idempotencyRecords.tableName,
      [ENV.reservationsTable]: tables.reservations.tableName,
      [ENV.historyTable]: tables.history.tableName,
      [ENV.historyRetentionDays]: String(settings.historyRetentionDays),
      [ENV.changeFeedTable]: tables.changeFeed.tableName,
      [LOG_LEVEL_VARIABLE]: settings.logLevel,
    };
    // `cdk deploy -c petsSunsetDate=2027-12-01` moves GET /pets/{petId}'s Sunset; checked here, so a bad date fails the synth, not a cold start.
    const petsSunsetDate: unknown = this.node.tryGetContext(PETS_SUNSET_CONTEXT_KEY);
    let petsSunset: Date | undefined;
    if (typeof petsSunsetDate === 'string') {
      petsSunset = readPetsSunset({ [ENV.petsSunsetDate]: petsSunsetDate });
      environment[ENV.petsSunsetDate] = petsSunsetDate;
    }
    const functionDefaults = { environment, logRetention: settings.logRetention, logRemovalPolicy: dataRemovalPolicy };

    const authorizer = new ServiceFunction(this, 'Authorizer', {
      lambda: authorizerLambda,
      description: 'API key authorizer: Authorization: Bearer <key> to the key, its plan and limits',
      ...functionDefaults,
    });
    authorizer.grantTableAccess(tables.apiKeys, 'keyLookup');
    authorizer.grantTableAccess(tables.usageCounters, 'failedAuthenticationCounting');

    const operations = apiRoutes.map((route) => {
      const service = new ServiceFunction(this, upperFirst(route.operationId), {
        lambda: lambdaOf(route.operationId),
        description: `${route.operationId}: ${route.method} ${route.resource}`,
        timeoutSeconds: functionTimeoutSeconds(route),
        ...functionDefaults,
      });
      const access: RouteTableAccess = ROUTE_TABLE_ACCESS[route.inventoryAccess];
      if (access.inventory) service.grantTableAccess(tables.inventory, access.inventory);
      if (access.changeFeed) service.grantTableAccess(tables.changeFeed, access.changeFeed);
      if (access.idempotencyRecords) service.grantTableAccess(tables.idempotencyRecords, access.idempotencyRecords);
      if (access.history) service.grantTableAccess(tables.history, access.history);
      if (access.reservations) service.grantTableAccess(tables.reservations, access.reservations);
      service.grantTableAccess(tables.usageCounters, 'usageCounting');
      return { route, service };
    });

    const health = new ServiceFunction(this, 'Health', {
      lambda: healthRoute.lambda,
      description: `${healthRoute.operationId}: ${healthRoute.method} ${healthRoute.resource} (no key)`,
      ...functionDefaults,
    });
    health.grantTableAccess(tables.inventory, 'healthProbe');

    const sweep = new ReservationSweep(this, 'ReservationSweep', {
      inventory: tables.inventory,
      reservations: tables.reservations,
      ...functionDefaults,
    });

    const history = new InventoryHistory(this, 'History', {
      inventory: tables.inventory,
      history: tables.history,
      ...functionDefaults,
    });
    history.consumer.grantTableAccess(tables.changeFeed, 'changeFeedAppend');
    const events = new InventoryEvents(this, 'Events', {
      stage: settings.stage,
      consumer: history.consumer,
      webhookSubscriptions: readWebhookSubscriptions(this.node.tryGetContext(WEBHOOK_URLS_CONTEXT_KEY), settings.stage),
      environment,
      logRetention: settings.logRetention,
      logRemovalPolicy: dataRemovalPolicy,
    });

    const api = new InventoryApi(this, 'Api', {
      health: { route: healthRoute, handler: health.function },
      restApiName: this.stackName,
      authorizerHandler: authorizer.function,
      operations: operations.map(({ route, service }) => ({ route, handler: service.function })),
      logRetention: settings.logRetention,
      logRemovalPolicy: dataRemovalPolicy,
      petsSunset,
    });

    const authorizerFailures = authorizer.logGroup.addMetricFilter('UnexpectedFailures', {
      filterPattern: FilterPattern.literal(`"${AUTHORIZER_FAILURE_LOG_MESSAGE}"`),
      metricNamespace: `PetStoreInventory/${this.stackName}`,
      metricName: 'AuthorizerFailures',
      metricValue: '1',
    });
    const monitoredFunctions: MonitoredFunction[] = [
      {
        name: 'Authorizer',
        function: authorizer.function,
        unexpectedErrors: authorizerFailures.metric({ statistic: Stats.SUM, period: ALARM_PERIOD }),
      },
      ...operations.map(({ route, service }) => ({
        name: upperFirst(route.operationId),
        function: service.function,
        unexpectedErrors: service.function.metricErrors({ statistic: Stats.SUM, period: ALARM_PERIOD }),
      })),
      {
        name: 'HistoryConsumer',
        function: history.function,
        unexpectedErrors: history.function.metricErrors({ statistic: Stats.SUM, period: ALARM_PERIOD }),
      },
      {
        name: 'ReservationSweep',
        function: sweep.service.function,
        unexpectedErrors: sweep.service.function.metricErrors({ statistic: Stats.SUM, period: ALARM_PERIOD }),
      },
      {
        name: 'WebhookDelivery',
        function: events.delivery.function,
        unexpectedErrors: events.delivery.function.metricErrors({ statistic: Stats.SUM, period: ALARM_PERIOD }),
      },
    ];

    // The functions' own EMF metrics (functions/logger.ts): serving degraded, though without errors.
    const serviceSignals: ServiceSignal[] = operations.flatMap(({ route, service }) =>
      serviceMetricsOf(route).map((metricName) => ({
        name: `${upperFirst(route.operationId)}${metricName}`,
        metric: new Metric({
          namespace: METRIC_NAMESPACE,
          metricName,
          dimensionsMap: { FunctionName: service.function.functionName },
          statistic: Stats.SUM,
          period: ALARM_PERIOD,
        }),
        description: `${route.operationId} reported ${metricName} in the last 5 minutes: ${SERVICE_METRIC_MEANINGS[metricName]}.`,
      })),
    );

    const alarmTopic = settings.notifyAlarms
      ? new Topic(this, 'AlarmTopic', { displayName: `${this.stackName} alarms`, enforceSSL: true })
      : undefined;
    if (alarmTopic) {
      new CfnOutput(this, STACK_OUTPUTS.alarmTopicArn, {
        value: alarmTopic.topicArn,
        description: 'SNS topic the alarms notify; subscribe the on-call address to it',
      });
    }

    const edgeShield = new EdgeShield(this, 'EdgeShield', {
      stage: api.restApi.deploymentStage,
      name: this.stackName,
      ...(alarmTopic ? { notify: alarmTopic } : {}),
    });

    const monitoredTables: MonitoredTable[] = [
      { name: 'Inventory', table: tables.inventory },
      { name: 'ApiKeys', table: tables.apiKeys },
      { name: 'UsageCounters', table: tables.usageCounters },
      { name: 'IdempotencyRecords', table: tables.idempotencyRecords },
      { name: 'History', table: tables.history },
      { name: 'ChangeFeed', table: tables.changeFeed },
      { name: 'Reservations', table: tables.reservations },
    ];
    const alarms = new OperationalAlarms(this, 'Alarms', {
      apiStage: api.restApi.deploymentStage,
      functions: monitoredFunctions,
      serviceSignals,
      tables: monitoredTables,
      streamConsumers: [
        {
          name: 'History',
          function: history.function,
          failedRecords: history.failedRecords,
          maxRecordAge: HISTORY_STREAM.maxRecordAge,
          replayCommand: `npm run events -- replay --stage ${settings.stage}`,
        },
      ],
      deadLetterQueues: [
        {
          name: 'WebhookDeadLetters',
          queue: events.deadLetters,
          description:
            'Webhooks failed for 24 hours and were dead-lettered: list them with npm run events -- dead-letters --stage, send them again with redrive.',
        },
      ],
      ...(alarmTopic ? { notify: alarmTopic } : {}),
    });

    new OperationsDashboard(this, 'Operations', {
      dashboardName: this.stackName,
      apiStage: api.restApi.deploymentStage,
      operations: api.operations.map(({ route, method, handler }) => ({ route, method, function: handler })),
      authorizer: authorizer.function,
      accessLogs: api.accessLogs,
      tables: monitoredTables,
      serviceSignals,
      alarms: [...alarms.alarms, ...edgeShield.alarms],
      webAcl: { name: edgeShield.webAcl.name!, region: this.region },
    });

    new CfnOutput(this, STACK_OUTPUTS.restApiId, { value: api.restApi.restApiId, description: 'REST API id' });
    new CfnOutput(this, STACK_OUTPUTS.apiUrl, {
      value: api.baseUrl,
      description: 'Base address of the API; paths such as /inventory follow it',
    });
    new CfnOutput(this, STACK_OUTPUTS.stageName, { value: API_STAGE_NAME, description: 'API Gateway stage name' });
    for (const [plan, outputName] of Object.entries(USAGE_PLAN_OUTPUTS)) {
      new CfnOutput(this, outputName, {
        value: api.usagePlans[plan as ContractPlan].usagePlanId,
        description: `Usage plan of the ${plan} plan`,
      });
    }
    new CfnOutput(this, STACK_OUTPUTS.inventoryTableName, { value: tables.inventory.tableName, description: 'Inventory table' });
    new CfnOutput(this, STACK_OUTPUTS.apiKeysTableName, {
      value: tables.apiKeys.tableName,
      description: 'API keys table (by SHA-256 of the key)',
    });
    new CfnOutput(this, STACK_OUTPUTS.usageCountersTableName, {
      value: tables.usageCounters.tableName,
      description: 'Usage counters and bans table',
    });
    // npm run events -- dead-letters | redrive --stage: it peeks at the dead letters and moves them back (StartMessageMoveTask takes ARNs).
    new CfnOutput(this, STACK_OUTPUTS.webhookDeliveryQueueArn, {
      value: events.deliveries.queueArn,
      description: 'Webhook delivery queue (FIFO)',
    });
    new CfnOutput(this, STACK_OUTPUTS.webhookDeadLetterQueueUrl, {
      value: events.deadLetters.queueUrl,
      description: 'Webhook dead-letter queue (FIFO), its URL',
    });
    new CfnOutput(this, STACK_OUTPUTS.webhookDeadLetterQueueArn, {
      value: events.deadLetters.queueArn,
      description: 'Webhook dead-letter queue (FIFO), its ARN',
    });
    // npm run events -- replay --stage: it reads the failed stream batches and hands their records to the consumer again.
    new CfnOutput(this, STACK_OUTPUTS.historyFailedRecordsQueueUrl, {
      value: history.failedRecords.queueUrl,
      description: "History stream consumer's on-failure queue, its URL",
    });
    new CfnOutput(this, STACK_OUTPUTS.historyConsumerFunctionName, {
      value: history.function.functionName,
      description: 'History stream consumer function (records each inventory change)',
    });
  }
}
