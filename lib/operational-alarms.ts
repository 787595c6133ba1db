import { Duration } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, MathExpression, Stats, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { STREAM_RETENTION_HOURS } from './deployments.ts';

/** The window of the function and table alarms; pass it as the period of `unexpectedErrors`. */
export const ALARM_PERIOD = Duration.minutes(5);

/**
 * Share of requests answered 5xx (the 5XXError metric's average) over which the API is
 * failing rather than having a blip: more than 5% in 3 of 5 minutes.
 */
export const API_5XX_RATE_THRESHOLD = 0.05;

export interface MonitoredFunction {
  /** Used in the alarms' construct ids and descriptions. */
  name: string;
  function: IFunction;
  /**
   * Invocations that failed unexpectedly. For the HTTP functions this is Lambda's Errors
   * metric (they answer every handled error themselves); the authorizer's Errors also count
   * every 401, since API Gateway only answers 401 to a thrown 'Unauthorized'.
   */
  unexpectedErrors: IMetric;
}

export interface MonitoredTable {
  name: string;
  table: ITable;
}

/** A metric the service emits itself when it serves in a degraded way; any datapoint alarms. */
export interface ServiceSignal {
  name: string;
  metric: IMetric;
  description: string;
}

/** A function fed by a table's stream through an event source mapping with an on-failure queue. */
export interface StreamConsumer {
  name: string;
  function: IFunction;
  failedRecords: IQueue;
  /** The mapping's maxRecordAge: the oldest a failed batch's records are when they reach the queue. */
  maxRecordAge: Duration;
  /** What replays the queue's batches, named in the alarms. */
  replayCommand: string;
}

/** A queue that holds what was given up on: any message in it is work an operator must look at. */
export interface DeadLetterQueue {
  name: string;
  queue: IQueue;
  /** What a message in it means, and what to do. */
  description: string;
}

/** A consumer this far behind its stream delays what it derives: history records are meant to show within seconds. */
export const ITERATOR_AGE_THRESHOLD = Duration.minutes(1);

export interface OperationalAlarmsProps {
  apiStage: Stage;
  functions: readonly MonitoredFunction[];
  tables: readonly MonitoredTable[];
  serviceSignals: readonly ServiceSignal[];
  streamConsumers?: readonly StreamConsumer[];
  deadLetterQueues?: readonly DeadLetterQueue[];
  /** Where alarms and recoveries are sent; without it the alarms only show in CloudWatch. */
  notify?: ITopic;
}

/** The alarms an operator needs to know the API is failing, and which part is. */
export class OperationalAlarms extends Construct {
  readonly alarms: Alarm[] = [];
  private readonly notify: ITopic | undefined;

  constructor(scope: Construct, id: string, props: OperationalAlarmsProps) {
    super(scope, id);
    this.notify = props.notify;

    this.add('Api5xxRate', {
      metric: props.apiStage.metricServerError({ statistic: Stats.AVERAGE, period: Duration.minutes(1) }),
      threshold: API_5XX_RATE_THRESHOLD,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 5,
      datapointsToAlarm: 3,
      alarmDescription: `More than ${API_5XX_RATE_THRESHOLD * 100}% of requests to stage ${props.apiStage.stageName} answered 5xx in 3 of the last 5 minutes.`,
    });

    // A function failing or throttled even once in five minutes is worth a look: neither happens in normal operation.
    for (const monitored of props.functions) {
      this.add(`${monitored.name}Errors`, {
        metric: monitored.unexpectedErrors,
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        alarmDescription: `${monitored.name} failed unexpectedly (crash, timeout or unhandled error) in the last 5 minutes.`,
      });
      this.add(`${monitored.name}Throttles`, {
        metric: monitored.function.metricThrottles({ statistic: Stats.SUM, period: ALARM_PERIOD }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        alarmDescription: `Lambda throttled ${monitored.name} (concurrency limit) in the last 5 minutes.`,
      });
    }

    for (const signal of props.serviceSignals) {
      this.add(signal.name, {
        metric: signal.metric,
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        alarmDescription: signal.description,
      });
    }

    for (const consumer of props.streamConsumers ?? []) {
      // Its records were at most maxRecordAge old when the batch failed: this long is left to replay it, at least.
      const leftHours = STREAM_RETENTION_HOURS - consumer.maxRecordAge.toHours({ integral: false });
      const waitedHours = leftHours / 2;
      this.addQueueNotEmpty(
        `${consumer.name}StreamFailedRecords`,
        consumer.failedRecords,
        `The ${consumer.name} stream consumer gave up on a batch of records (its on-failure queue holds where they are): changes without their derived entries. The stream keeps records ${STREAM_RETENTION_HOURS} hours: replay them within ${leftHours} hours: ${consumer.replayCommand} (docs/deploying-and-operating.md).`,
      );
      this.add(`${consumer.name}StreamFailedRecordsAge`, {
        metric: consumer.failedRecords.metricApproximateAgeOfOldestMessage({ statistic: Stats.MAXIMUM, period: ALARM_PERIOD }),
        threshold: waitedHours * 3_600,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        alarmDescription: `The oldest failed batch of the ${consumer.name} stream consumer has waited ${waitedHours} hours in its on-failure queue: the stream drops its records within ${waitedHours} hours, and with them what recording those changes' history, feed records and events needs. Replay now: ${consumer.replayCommand} (docs/deploying-and-operating.md).`,
      });
      this.add(`${consumer.name}StreamIteratorAge`, {
        metric: consumer.function.metric('IteratorAge', { statistic: Stats.MAXIMUM, period: Duration.minutes(1) }),
        threshold: ITERATOR_AGE_THRESHOLD.toMilliseconds(),
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 3,
        alarmDescription: `The ${consumer.name} stream consumer was more than ${ITERATOR_AGE_THRESHOLD.toMinutes()} minute behind its stream for 3 minutes.`,
      });
    }

    for (const deadLetters of props.deadLetterQueues ?? [])
      this.addQueueNotEmpty(deadLetters.name, deadLetters.queue, deadLetters.description);

    // On-demand tables throttle only past their table or partition limits; the functions then retry and may answer 503.
    for (const monitored of props.tables) {
      this.add(`${monitored.name}TableThrottles`, {
        metric: new MathExpression({
          expression: 'FILL(reads, 0) + FILL(writes, 0)',
          usingMetrics: {
            reads: monitored.table.metric('ReadThrottleEvents', { statistic: Stats.SUM, period: ALARM_PERIOD }),
            writes: monitored.table.metric('WriteThrottleEvents', { statistic: Stats.SUM, period: ALARM_PERIOD }),
          },
          label: `${monitored.name} throttle events`,
          period: ALARM_PERIOD,
        }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        alarmDescription: `DynamoDB throttled reads or writes on the ${monitored.name} table in the last 5 minutes.`,
      });
    }
  }

  /** Fires on a queue's first message. */
  private addQueueNotEmpty(id: string, queue: IQueue, alarmDescription: string): void {
    this.add(id, {
      metric: queue.metricApproximateNumberOfMessagesVisible({ statistic: Stats.MAXIMUM, period: Duration.minutes(1) }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      alarmDescription,
    });
  }

  private add(id: string, props: Omit<ConstructorParameters<typeof Alarm>[2], 'treatMissingData'>): void {
    // No data means no traffic, which is not a failure.
    const alarm = new Alarm(this, id, { ...props, treatMissingData: TreatMissingData.NOT_BREACHING });
    if (this.notify) {
      alarm.addAlarmAction(new SnsAction(this.notify));
      alarm.addOkAction(new SnsAction(this.notify));
    }
    this.alarms.push(alarm);
  }
}
