import { Duration } from 'aws-cdk-lib';
import type { Method, Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type IAlarm,
  type IMetric,
  LogQueryVisualizationType,
  LogQueryWidget,
  Metric,
  Stats,
  type IWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { COLD_START_METRIC, METRIC_NAMESPACE } from '../functions/logger.ts';
import type { ApiRoute } from '../functions/routes.ts';
import type { MonitoredTable, ServiceSignal } from './operational-alarms.ts';

/** Fine enough to see a burst, coarse enough for a day on one graph. */
export const DASHBOARD_PERIOD = Duration.minutes(1);

/** API Gateway's WAFv2 metric of requests a web ACL's rules blocked (Rule=ALL sums them). */
export const WAF_BLOCKED_REQUESTS = 'BlockedRequests';

export interface DashboardOperation {
  readonly route: ApiRoute;
  readonly method: Method;
  readonly function: IFunction;
}

export interface OperationsDashboardProps {
  readonly dashboardName: string;
  readonly apiStage: Stage;
  readonly operations: readonly DashboardOperation[];
  readonly authorizer: IFunction;
  /** The stage's access log (one JSON object per request, lib/inventory-api.ts): status codes and plans by request. */
  readonly accessLogs: ILogGroup;
  readonly tables: readonly MonitoredTable[];
  /** The functions' own degraded-mode metrics, as the alarms watch them. */
  readonly serviceSignals: readonly ServiceSignal[];
  readonly alarms: readonly IAlarm[];
  /** The WAFv2 web ACL associated with the stage (lib/edge-shield.ts): its blocked requests get a graph. */
  readonly webAcl: { readonly name: string; readonly region: string };
}

/**
 * The service at a glance, one dashboard per stage: traffic, answers by status, latency per
 * operation, 429s by plan, degraded modes, DynamoDB, the edge (WAF), and every alarm. Status
 * codes and plans come from the access log with Logs Insights, because API Gateway's metrics
 * count 4XX and 5XX only as two totals and know nothing of plans.
 */
export class OperationsDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    super(scope, id);
    const { apiStage, operations } = props;
    const perMinute = { statistic: Stats.SUM, period: DASHBOARD_PERIOD };
    const accessLogQuery = (title: string, view: LogQueryVisualizationType, queryLines: string[], width = 12): IWidget =>
      new LogQueryWidget({ title, view, queryLines, logGroupNames: [props.accessLogs.logGroupName], width, height: 6 });

    const traffic: IWidget[] = [
      new GraphWidget({
        title: 'Requests per operation',
        stacked: true,
        left: operations.map(({ route, method }) => method.metricCount(apiStage, { ...perMinute, label: route.operationId })),
        width: 12,
      }),
      new GraphWidget({
        title: '4xx and 5xx answers',
        left: [apiStage.metricClientError({ ...perMinute, label: '4xx' }), apiStage.metricServerError({ ...perMinute, label: '5xx' })],
        width: 12,
      }),
      accessLogQuery('4xx and 5xx answers by status', LogQueryVisualizationType.LINE, [
        'fields status',
        'filter status like /^[45][0-9][0-9]$/',
        'stats count(*) as answers by bin(1m), status',
      ]),
      accessLogQuery(
        'Error answers by status and by who answered (a gateway response type, or - for the function)',
        LogQueryVisualizationType.TABLE,
        [
          'fields status, gatewayResponseType',
          'filter status like /^[45][0-9][0-9]$/',
          'stats count(*) as answers by status, gatewayResponseType',
          'sort status',
        ],
      ),
    ];

    const latency: IWidget[] = operations.map(
      ({ route, method }) =>
        new GraphWidget({
          title: `${route.operationId} latency (${route.method} ${route.resource})`,
          left: [Stats.p(50), Stats.p(99)].map((statistic) =>
            method.metricLatency(apiStage, { statistic, period: DASHBOARD_PERIOD, label: statistic }),
          ),
          leftYAxis: { label: 'ms', showUnits: false, min: 0 },
          width: 8,
        }),
    );

    const limits: IWidget[] = [
      accessLogQuery('429 answers by plan', LogQueryVisualizationType.LINE, [
        'fields plan',
        'filter status = "429"',
        'stats count(*) as rejected by bin(1m), plan',
      ]),
      accessLogQuery(
        '429 answers by plan and by who refused (THROTTLED or QUOTA_EXCEEDED: the edge usage plan; -: the service)',
        LogQueryVisualizationType.TABLE,
        [
          'fields plan, gatewayResponseType',
          'filter status = "429"',
          'stats count(*) as rejected by plan, gatewayResponseType',
          'sort rejected desc',
        ],
      ),
    ];

    const degraded: IWidget[] = [
      new GraphWidget({
        title: 'Degraded modes (each has an alarm)',
        left: props.serviceSignals.map((signal) => withLabel(signal.metric, signal.name)),
        width: 12,
      }),
      new GraphWidget({
        title: 'Cold starts',
        left: [
          ...operations.map(({ route, function: fn }) => coldStarts(fn, route.operationId)),
          coldStarts(props.authorizer, 'authorizer'),
        ],
        width: 12,
      }),
    ];

    const tables: IWidget[] = [
      new GraphWidget({
        title: 'DynamoDB consumed capacity units',
        left: props.tables.flatMap(({ name, table }) => [
          table.metricConsumedReadCapacityUnits({ ...perMinute, label: `${name} reads` }),
          table.metricConsumedWriteCapacityUnits({ ...perMinute, label: `${name} writes` }),
        ]),
        width: 12,
      }),
      new GraphWidget({
        title: 'DynamoDB throttle events',
        left: props.tables.flatMap(({ name, table }) => [
          table.metric('ReadThrottleEvents', { ...perMinute, label: `${name} read throttles` }),
          table.metric('WriteThrottleEvents', { ...perMinute, label: `${name} write throttles` }),
        ]),
        width: 12,
      }),
    ];

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName,
      defaultInterval: Duration.hours(3),
      widgets: [
        [new AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: 24, height: 4 })],
        traffic,
        latency,
        limits,
        degraded,
        tables,
        [wafBlocks(props.webAcl)],
      ],
    });
  }
}

function withLabel(metric: IMetric, label: string): IMetric {
  return metric instanceof Metric ? metric.with({ label }) : metric;
}

function coldStarts(fn: IFunction, label: string): Metric {
  return new Metric({
    namespace: METRIC_NAMESPACE,
    metricName: COLD_START_METRIC,
    dimensionsMap: { FunctionName: fn.functionName },
    statistic: Stats.SUM,
    period: Duration.minutes(5),
    label,
  });
}

function wafBlocks(webAcl: { name: string; region: string }): IWidget {
  return new GraphWidget({
    title: `WAF blocked requests (web ACL ${webAcl.name})`,
    left: [
      new Metric({
        namespace: 'AWS/WAFV2',
        metricName: WAF_BLOCKED_REQUESTS,
        dimensionsMap: { WebACL: webAcl.name, Region: webAcl.region, Rule: 'ALL' },
        statistic: Stats.SUM,
        period: DASHBOARD_PERIOD,
        label: 'blocked',
      }),
    ],
    width: 24,
  });
}
