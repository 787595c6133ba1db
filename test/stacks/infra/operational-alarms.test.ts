import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeysTable,
  changeFeedTable,
  historyTable,
  idempotencyRecordsTable,
  reservationsTable,
  inventoryTable,
  usageCountersTable,
} from '../../../functions/adapters/dynamodb/tables.ts';
import { METRIC_NAMESPACE, SERVICE_METRICS } from '../../../functions/logger.ts';
import { apiRoutes } from '../../../functions/routes.ts';
import { API_STAGE_NAME, STACK_NAMES, STACK_OUTPUTS } from '../../../lib/deployments.ts';
import { API_5XX_RATE_THRESHOLD, ITERATOR_AGE_THRESHOLD } from '../../../lib/operational-alarms.ts';
import { serviceMetricsOf } from '../../../lib/petstore-inventory-stack.ts';
import {
  AUTHORIZER_DESCRIPTION,
  functionWithDescription,
  keySchemaOf,
  onlyResource,
  queueIds,
  referencedId,
  resourcesOfType,
  routeDescription,
  STAGES,
  synthesizeApp,
  type Resources,
  type SynthesizedApp,
} from './synthesized-app.ts';

/** An alarm that fires on the first occurrence in a 5-minute period, and stays quiet without data. */
const ANY_OCCURRENCE_IN_FIVE_MINUTES = {
  Statistic: 'Sum',
  Period: 300,
  Threshold: 1,
  ComparisonOperator: 'GreaterThanOrEqualToThreshold',
  TreatMissingData: 'notBreaching',
};

let synthesized: SynthesizedApp;
beforeAll(() => {
  synthesized = synthesizeApp();
});

type AlarmProperties = Record<string, any>;

describe.each(STAGES)('operations of the %s stage', (stage) => {
  const template = () => synthesized.templates[stage];
  const alarms = () =>
    Object.values(resourcesOfType(template(), 'AWS::CloudWatch::Alarm')).map((alarm) => alarm.Properties as AlarmProperties);
  const functionId = (prefix: string) => functionWithDescription(template(), prefix)[0];
  const alarmsOnMetric = (namespace: string, metricName: string, dimensions?: unknown[]) =>
    alarms().filter(
      (alarm) =>
        alarm.Namespace === namespace && alarm.MetricName === metricName && JSON.stringify(alarm.Dimensions) === JSON.stringify(dimensions),
    );

  it(`alarms when more than ${API_5XX_RATE_THRESHOLD * 100}% of the stage's requests answer 5xx`, () => {
    const found = alarmsOnMetric('AWS/ApiGateway', '5XXError', [
      { Name: 'ApiName', Value: STACK_NAMES[stage] },
      { Name: 'Stage', Value: { Ref: onlyResource(template(), 'AWS::ApiGateway::Stage', { StageName: API_STAGE_NAME })[0] } },
    ]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      Statistic: 'Average',
      Period: 60,
      Threshold: 0.05,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 5,
      DatapointsToAlarm: 3,
      TreatMissingData: 'notBreaching',
    });
  });

  it.each(apiRoutes.map((route) => route.operationId))('alarms on any error or throttle of the %s function', (operationId) => {
    for (const metricName of ['Errors', 'Throttles']) {
      const found = alarmsOnMetric('AWS/Lambda', metricName, [
        { Name: 'FunctionName', Value: { Ref: functionId(routeDescription(operationId)) } },
      ]);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject(ANY_OCCURRENCE_IN_FIVE_MINUTES);
    }
  });

  it('alarms on authorizer throttles, and on its failures as logged (its Errors metric counts every 401)', () => {
    const authorizerId = functionId(AUTHORIZER_DESCRIPTION);
    expect(alarmsOnMetric('AWS/Lambda', 'Throttles', [{ Name: 'FunctionName', Value: { Ref: authorizerId } }])).toHaveLength(1);
    expect(alarmsOnMetric('AWS/Lambda', 'Errors', [{ Name: 'FunctionName', Value: { Ref: authorizerId } }])).toHaveLength(0);
    const [, filter] = onlyResource(template(), 'AWS::Logs::MetricFilter');
    const [{ MetricNamespace, MetricName }] = filter.Properties!.MetricTransformations;
    expect(referencedId(filter.Properties!.LogGroupName)).toBe(
      referencedId(resourcesOfType(template(), 'AWS::Lambda::Function')[authorizerId]!.Properties!.LoggingConfig.LogGroup),
    );
    const found = alarmsOnMetric(MetricNamespace, MetricName);
    expect(found).toHaveLength(1);
    expect(MetricNamespace).toContain(STACK_NAMES[stage]);
    expect(found[0]).toMatchObject({ Statistic: 'Sum', Period: 300, Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
  });

  it('alarms on any error or throttle of the history consumer, on the first record it gives up on, and when it falls behind its stream', () => {
    const consumer = { Name: 'FunctionName', Value: { Ref: functionId('Records each inventory change') } };
    for (const metricName of ['Errors', 'Throttles']) {
      const found = alarmsOnMetric('AWS/Lambda', metricName, [consumer]);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject(ANY_OCCURRENCE_IN_FIVE_MINUTES);
    }
    const queueId = queueIds(template()).failedRecords;
    const failed = alarmsOnMetric('AWS/SQS', 'ApproximateNumberOfMessagesVisible', [
      { Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } },
    ]);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ Statistic: 'Maximum', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(failed[0]!.AlarmDescription).toContain(`replay them within 23 hours: npm run events -- replay --stage ${stage}`);
    const behind = alarmsOnMetric('AWS/Lambda', 'IteratorAge', [consumer]);
    expect(behind).toHaveLength(1);
    expect(behind[0]).toMatchObject({
      Statistic: 'Maximum',
      Threshold: ITERATOR_AGE_THRESHOLD.toMilliseconds(),
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it('alarms when the oldest failed batch of the history consumer has waited half the time its records have left in the stream, saying how long is left', () => {
    const waiting = alarmsOnMetric('AWS/SQS', 'ApproximateAgeOfOldestMessage', [
      { Name: 'QueueName', Value: { 'Fn::GetAtt': [queueIds(template()).failedRecords, 'QueueName'] } },
    ]);
    expect(waiting).toHaveLength(1);
    // The stream keeps records 24 hours; they were at most an hour old (maxRecordAge) when they failed: 23 hours, half of it waited.
    expect(waiting[0]).toMatchObject({
      Statistic: 'Maximum',
      Threshold: 11.5 * 3_600,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(waiting[0]!.AlarmDescription).toContain('the stream drops its records within 11.5 hours');
    expect(waiting[0]!.AlarmDescription).toContain(`npm run events -- replay --stage ${stage}`);
  });

  it.each(
    [inventoryTable, apiKeysTable, usageCountersTable, idempotencyRecordsTable, historyTable, changeFeedTable, reservationsTable].map(
      (table) => [table.partitionKey.name, table] as const,
    ),
  )('alarms on throttled reads or writes of the table keyed by %s', (_keyName, table) => {
    const [tableId] = onlyResource(template(), 'AWS::DynamoDB::Table', { KeySchema: keySchemaOf(table) });
    const found = alarms().filter((alarm) => JSON.stringify(alarm.Metrics ?? []).includes(`"Ref":"${tableId}"`));
    expect(found).toHaveLength(1);
    const metrics = found[0]!.Metrics as {
      Id: string;
      Expression?: string;
      MetricStat?: { Metric: { MetricName: string; Namespace: string } };
    }[];
    expect(metrics.find((metric) => metric.Expression)?.Expression).toBe('FILL(reads, 0) + FILL(writes, 0)');
    expect(
      metrics
        .flatMap((metric) => (metric.MetricStat ? [`${metric.MetricStat.Metric.Namespace} ${metric.MetricStat.Metric.MetricName}`] : []))
        .sort(),
    ).toEqual(['AWS/DynamoDB ReadThrottleEvents', 'AWS/DynamoDB WriteThrottleEvents']);
    expect(found[0]).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' });
  });

  it.each(apiRoutes.map((route) => [route.operationId, route] as const))(
    'alarms when the %s function serves degraded (store unavailable, counting unavailable, a streamed answer cut, a write contended)',
    (operationId, route) => {
      const writesInRounds = ['update', 'adjust', 'adjustBatch', 'reserve', 'commitReservation', 'releaseReservation'].includes(
        route.inventoryAccess,
      );
      const expected: string[] = [
        SERVICE_METRICS.storeUnavailable,
        SERVICE_METRICS.usageCountingUnavailable,
        ...(route.streamed ? [SERVICE_METRICS.streamAborted] : []),
        ...(writesInRounds ? [SERVICE_METRICS.writeContended] : []),
      ];
      expect(serviceMetricsOf(route).sort()).toEqual(expected.sort());
      for (const metricName of Object.values(SERVICE_METRICS)) {
        const found = alarmsOnMetric(METRIC_NAMESPACE, metricName, [
          { Name: 'FunctionName', Value: { Ref: functionId(routeDescription(operationId)) } },
        ]);
        expect(found).toHaveLength(expected.includes(metricName) ? 1 : 0);
        if (found[0]) expect(found[0]).toMatchObject(ANY_OCCURRENCE_IN_FIVE_MINUTES);
      }
    },
  );

  it("alarms on the listing's cut streams, saying clients got invalid JSON", () => {
    const listing = apiRoutes.find((route) => route.streamed)!;
    const [alarm] = alarmsOnMetric(METRIC_NAMESPACE, SERVICE_METRICS.streamAborted, [
      { Name: 'FunctionName', Value: { Ref: functionId(routeDescription(listing.operationId)) } },
    ]);
    expect(alarm!.AlarmDescription).toContain('invalid JSON');
  });

  it('alarms on any error or throttle of the webhook delivery function, and on the first webhook dead-lettered', () => {
    const delivery = { Name: 'FunctionName', Value: { Ref: functionId('Delivers signed webhooks') } };
    for (const metricName of ['Errors', 'Throttles']) {
      const found = alarmsOnMetric('AWS/Lambda', metricName, [delivery]);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject(ANY_OCCURRENCE_IN_FIVE_MINUTES);
    }
    const deadLettered = alarmsOnMetric('AWS/SQS', 'ApproximateNumberOfMessagesVisible', [
      { Name: 'QueueName', Value: { 'Fn::GetAtt': [queueIds(template()).webhookDeadLetters, 'QueueName'] } },
    ]);
    expect(deadLettered).toHaveLength(1);
    expect(deadLettered[0]).toMatchObject({ Statistic: 'Maximum', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(deadLettered[0]!.AlarmDescription).toContain('npm run events -- dead-letters');
  });

  it('has no other alarms', () => {
    // The routes', the authorizer's, the history consumer's, the webhook delivery's and the reservation sweep's.
    const functions = apiRoutes.length + 4;
    const serviceSignals = apiRoutes.reduce((count, route) => count + serviceMetricsOf(route).length, 0);
    const tables = Object.keys(resourcesOfType(template(), 'AWS::DynamoDB::Table')).length;
    expect(tables).toBe(7);
    // The history consumer's on-failure queue (its first message, its oldest one's age) and its iterator age.
    const streamConsumerAlarms = 3;
    const webhookDeadLetters = 1;
    const webAclRules = 2;
    expect(alarms()).toHaveLength(1 + functions * 2 + tables + serviceSignals + streamConsumerAlarms + webhookDeadLetters + webAclRules);
  });

  if (stage === 'prod') {
    it('sends every alarm and its recovery to the SNS topic, whose ARN is an output', () => {
      const [topicId] = onlyResource(template(), 'AWS::SNS::Topic');
      for (const alarm of alarms()) {
        expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
        expect(alarm.OKActions).toEqual([{ Ref: topicId }]);
      }
      expect((template().toJSON().Outputs as Record<string, { Value: unknown }>)[STACK_OUTPUTS.alarmTopicArn]!.Value).toEqual({
        Ref: topicId,
      });
    });

    it('accepts only TLS publishers on the topic', () => {
      const [, policy] = onlyResource(template(), 'AWS::SNS::TopicPolicy');
      expect(JSON.stringify(policy.Properties!.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
    });
  } else {
    it('keeps its alarms in CloudWatch without notifying anyone', () => {
      expect(Object.keys(resourcesOfType(template(), 'AWS::SNS::Topic'))).toHaveLength(0);
      for (const alarm of alarms()) expect(alarm.AlarmActions ?? []).toEqual([]);
      expect(Object.keys(template().toJSON().Outputs)).not.toContain(STACK_OUTPUTS.alarmTopicArn);
    });
  }

  it('sets a retention on every log group and keeps them with the stack only in prod', () => {
    const logGroups: Resources = resourcesOfType(template(), 'AWS::Logs::LogGroup');
    // A function's each (the routes, the authorizer, the health check, the history consumer, the webhook delivery, the reservation sweep), and the API's access and execution logs.
    expect(Object.keys(logGroups)).toHaveLength(apiRoutes.length + 5 + 2);
    for (const logGroup of Object.values(logGroups)) {
      expect(logGroup.Properties!.RetentionInDays).toBe(stage === 'prod' ? 90 : 14);
      expect(logGroup.DeletionPolicy).toBe(stage === 'prod' ? 'Retain' : 'Delete');
    }
  });
});
