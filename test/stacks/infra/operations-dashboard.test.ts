import { App, Stack } from 'aws-cdk-lib';
import { MockIntegration, RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Template } from 'aws-cdk-lib/assertions';
import { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { beforeAll, describe, expect, it } from 'vitest';
import { STACK_NAMES } from '../../../lib/deployments.ts';
import { COLD_START_METRIC, METRIC_NAMESPACE } from '../../../functions/logger.ts';
import { apiRoutes } from '../../../functions/routes.ts';
import { OperationsDashboard, WAF_BLOCKED_REQUESTS } from '../../../lib/operations-dashboard.ts';
import { serviceMetricsOf } from '../../../lib/petstore-inventory-stack.ts';
import { temporaryDirectory } from '../../support/temporary-directories.ts';
import {
  AUTHORIZER_DESCRIPTION,
  functionWithDescription,
  onlyResource,
  referencedIds,
  resourcesOfType,
  routeDescription,
  STAGES,
  synthesizeApp,
  type SynthesizedApp,
} from './synthesized-app.ts';

interface Widget {
  type: 'alarm' | 'metric' | 'log' | 'text';
  properties: {
    title?: string;
    metrics?: unknown[][];
    alarms?: string[];
    query?: string;
    markdown?: string;
    view?: string;
    stacked?: boolean;
  };
}

/** The dashboard's body as JSON, each CloudFormation reference written as `«id»` (`«AWS::Region»` for the region). */
function dashboardWidgets(template: Template): Widget[] {
  const [, dashboard] = onlyResource(template, 'AWS::CloudWatch::Dashboard');
  const parts = dashboard.Properties!.DashboardBody['Fn::Join'][1] as unknown[];
  const text = parts
    .map((part) => {
      if (typeof part === 'string') return part;
      const { Ref, 'Fn::GetAtt': getAtt } = part as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
      return `«${Ref ?? getAtt?.[0]}»`;
    })
    .join('');
  return (JSON.parse(text) as { widgets: Widget[] }).widgets;
}

const titled = (widgets: Widget[], title: string | RegExp) => {
  const found = widgets.filter((widget) =>
    typeof title === 'string' ? widget.properties.title === title : title.test(widget.properties.title ?? ''),
  );
  expect(found, `one widget titled ${title}`).toHaveLength(1);
  return found[0]!;
};
/** A metric line's namespace, name and dimensions, without its rendering options. */
const metricOf = (line: unknown[]) => ({
  namespace: line[0],
  name: line[1],
  dimensions: Object.fromEntries(Array.from({ length: (line.length - 3) / 2 }, (_, index) => [line[2 + index * 2], line[3 + index * 2]])),
  options: line.at(-1) as { stat?: string; label?: string },
});

let synthesized: SynthesizedApp;
beforeAll(() => {
  synthesized = synthesizeApp();
});

describe.each(STAGES)('the operations dashboard of the %s stage', (stage) => {
  const template = () => synthesized.templates[stage];
  const widgets = () => dashboardWidgets(template());
  const stageId = () => onlyResource(template(), 'AWS::ApiGateway::Stage')[0];
  const accessLogsId = () => {
    const { DestinationArn } = onlyResource(template(), 'AWS::ApiGateway::Stage')[1].Properties!.AccessLogSetting;
    const [logGroupId] = referencedIds(DestinationArn).filter((id) => resourcesOfType(template(), 'AWS::Logs::LogGroup')[id]);
    return logGroupId;
  };
  const functionId = (prefix: string) => functionWithDescription(template(), prefix)[0];

  it('is one dashboard named after the stack', () => {
    expect(onlyResource(template(), 'AWS::CloudWatch::Dashboard')[1].Properties!.DashboardName).toBe(STACK_NAMES[stage]);
  });

  it('shows every alarm of the stack', () => {
    const alarmIds = Object.keys(resourcesOfType(template(), 'AWS::CloudWatch::Alarm'));
    expect(alarmIds.length).toBeGreaterThan(20);
    expect(titled(widgets(), 'Alarms').properties.alarms?.sort()).toEqual(alarmIds.map((id) => `«${id}»`).sort());
  });

  it('counts the requests of every operation, stacked, from its API Gateway method', () => {
    const lines = titled(widgets(), 'Requests per operation').properties.metrics!.map(metricOf);
    expect(lines.map(({ namespace, name, dimensions, options }) => [namespace, name, dimensions, options.stat, options.label])).toEqual(
      apiRoutes.map((route) => [
        'AWS/ApiGateway',
        'Count',
        { ApiName: STACK_NAMES[stage], Method: route.method, Resource: route.resource, Stage: `«${stageId()}»` },
        'Sum',
        route.operationId,
      ]),
    );
  });

  it('shows 4xx and 5xx answers as totals, and by status code and by who answered from the access log', () => {
    const totals = titled(widgets(), '4xx and 5xx answers').properties.metrics!.map(metricOf);
    expect(totals.map(({ name, options }) => [name, options.stat])).toEqual([
      ['4XXError', 'Sum'],
      ['5XXError', 'Sum'],
    ]);
    for (const title of ['4xx and 5xx answers by status', /^Error answers by status and by who answered/]) {
      const { type, properties } = titled(widgets(), title);
      expect(type).toBe('log');
      expect(properties.query).toContain(`SOURCE '«${accessLogsId()}»'`);
      expect(properties.query).toMatch(/filter status like \/\^\[45\]/);
      expect(properties.query).toMatch(/stats count\(\*\) as answers by .*status/);
    }
  });

  it.each(apiRoutes.map((route) => [route.operationId, route] as const))('graphs the p50 and p99 latency of %s', (operationId, route) => {
    const lines = titled(widgets(), `${operationId} latency (${route.method} ${route.resource})`).properties.metrics!.map(metricOf);
    expect(lines.map(({ name, dimensions, options }) => [name, dimensions.Method, dimensions.Resource, options.stat])).toEqual([
      ['Latency', route.method, route.resource, 'p50'],
      ['Latency', route.method, route.resource, 'p99'],
    ]);
  });

  it('counts 429 answers by plan, from the edge and from the service alike', () => {
    for (const title of ['429 answers by plan', /^429 answers by plan and by who refused/]) {
      const { properties } = titled(widgets(), title);
      expect(properties.query).toContain(`SOURCE '«${accessLogsId()}»'`);
      expect(properties.query).toContain('filter status = "429"');
      expect(properties.query).toMatch(/stats count\(\*\) as rejected by .*plan/);
    }
  });

  it('graphs every degraded-mode metric the alarms watch, for every operation (StreamAborted for the streamed one)', () => {
    const lines = titled(widgets(), 'Degraded modes (each has an alarm)').properties.metrics!.map(metricOf);
    const expected = apiRoutes.flatMap((route) =>
      serviceMetricsOf(route).map((name) => [
        METRIC_NAMESPACE,
        name,
        { FunctionName: `«${functionId(routeDescription(route.operationId))}»` },
      ]),
    );
    expect(lines.map(({ namespace, name, dimensions }) => [namespace, name, dimensions])).toEqual(expected);
  });

  it('counts the cold starts of every function, the authorizer included', () => {
    const lines = titled(widgets(), 'Cold starts').properties.metrics!.map(metricOf);
    const functions = [...apiRoutes.map((route) => routeDescription(route.operationId)), AUTHORIZER_DESCRIPTION];
    expect(lines.map(({ namespace, name, dimensions }) => [namespace, name, dimensions])).toEqual(
      functions.map((prefix) => [METRIC_NAMESPACE, COLD_START_METRIC, { FunctionName: `«${functionId(prefix)}»` }]),
    );
  });

  it('graphs the consumed read and write capacity and the throttle events of all seven tables, reservations included', () => {
    const tableIds = Object.keys(resourcesOfType(template(), 'AWS::DynamoDB::Table')).map((id) => `«${id}»`);
    expect(tableIds).toHaveLength(7);
    const capacity = titled(widgets(), 'DynamoDB consumed capacity units').properties.metrics!.map(metricOf);
    const throttles = titled(widgets(), 'DynamoDB throttle events').properties.metrics!.map(metricOf);
    const byTable = (lines: ReturnType<typeof metricOf>[]) =>
      Object.fromEntries(
        tableIds.map((id) => [
          id,
          lines.filter((line) => line.dimensions.TableName === id).map((line) => `${line.name} ${line.options.stat}`),
        ]),
      );
    expect(byTable(capacity)).toEqual(
      Object.fromEntries(tableIds.map((id) => [id, ['ConsumedReadCapacityUnits Sum', 'ConsumedWriteCapacityUnits Sum']])),
    );
    expect(byTable(throttles)).toEqual(
      Object.fromEntries(tableIds.map((id) => [id, ['ReadThrottleEvents Sum', 'WriteThrottleEvents Sum']])),
    );
  });

  it("graphs the blocked requests of the stage's web ACL (lib/edge-shield.ts)", () => {
    const graph = widgets().find((widget) => String(widget.properties.title).startsWith('WAF blocked requests'));
    expect(graph!.properties.metrics!.map(metricOf)).toEqual([
      expect.objectContaining({
        namespace: 'AWS/WAFV2',
        name: WAF_BLOCKED_REQUESTS,
        dimensions: expect.objectContaining({ Rule: 'ALL' }),
        options: expect.objectContaining({ stat: 'Sum' }),
      }),
    ]);
  });
});

describe('the WAF hook', () => {
  it('graphs the blocked requests of the web ACL it is given', () => {
    const stack = new Stack(new App({ outdir: temporaryDirectory('petstore-dashboard-') }), 'Dashboard', { env: { region: 'eu-west-1' } });
    const api = new RestApi(stack, 'Api');
    const route = apiRoutes[0];
    const method = api.root.resourceForPath(route.resource).addMethod(route.method, new MockIntegration());
    const fn = LambdaFunction.fromFunctionName(stack, 'Function', 'a-function');
    new OperationsDashboard(stack, 'Operations', {
      dashboardName: 'with-waf',
      apiStage: api.deploymentStage,
      operations: [{ route, method, function: fn }],
      authorizer: fn,
      accessLogs: LogGroup.fromLogGroupName(stack, 'AccessLogs', 'access-logs'),
      tables: [{ name: 'Inventory', table: Table.fromTableName(stack, 'Table', 'inventory') }],
      serviceSignals: [],
      alarms: [],
      webAcl: { name: 'petstore-edge', region: 'eu-west-1' },
    });

    const widgets = dashboardWidgets(Template.fromStack(stack));

    expect(widgets.filter((widget) => widget.type === 'text')).toEqual([]);
    const [blocked] = titled(widgets, 'WAF blocked requests (web ACL petstore-edge)').properties.metrics!.map(metricOf);
    expect(blocked).toMatchObject({
      namespace: 'AWS/WAFV2',
      name: WAF_BLOCKED_REQUESTS,
      dimensions: { WebACL: 'petstore-edge', Region: 'eu-west-1', Rule: 'ALL' },
      options: { stat: 'Sum' },
    });
  });
});
