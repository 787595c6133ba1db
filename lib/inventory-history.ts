import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { StartingPosition, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { backgroundEntries } from '../functions/routes.ts';
import { ServiceFunction } from './service-function.ts';

/** The consumer's entry point in functions/. */
export const HISTORY_CONSUMER_ENTRY = backgroundEntries[0];

/**
 * How the stream is read. A batch is recorded whole or retried: a failing batch is split in
 * halves until the failing record stands alone, each part retried up to RETRY_ATTEMPTS times;
 * a record that still fails is described in the on-failure queue (the entry can be recorded
 * again from it and the table), and the shard moves on. Records are kept 24 hours by the stream.
 * No batching window: Lambda polls each shard four times a second and invokes as soon as records
 * arrive, so an answered change is in its history within about a second.
 */
export const HISTORY_STREAM = {
  batchSize: 100,
  retryAttempts: 10,
  /** Records older than the stream's own 24 hours cannot be read anyway. */
  maxRecordAge: Duration.hours(24),
} as const;

export interface InventoryHistoryProps {
  inventory: Table;
  history: Table;
  environment: Record<string, string>;
  logRetention: RetentionDays;
  logRemovalPolicy: RemovalPolicy;
}

/** The inventory table's stream → the consumer function → the history table, with its on-failure queue. */
export class InventoryHistory extends Construct {
  readonly consumer: ServiceFunction;
  /** Stream records the consumer gave up on: any message here is a change without its history entry. */
  readonly failedRecords: Queue;

  constructor(scope: Construct, id: string, props: InventoryHistoryProps) {
    super(scope, id);
    this.consumer = new ServiceFunction(this, 'Consumer', {
      entry: HISTORY_CONSUMER_ENTRY,
      description: 'Records each inventory change in its pet history (inventory table stream)',
      environment: props.environment,
      logRetention: props.logRetention,
      logRemovalPolicy: props.logRemovalPolicy,
    });
    this.consumer.grantTableAccess(props.history, 'historyRecording');

    this.failedRecords = new Queue(this, 'FailedRecords', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy: props.logRemovalPolicy,
    });
    Validations.of(this.failedRecords).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself the on-failure destination of the history stream; nothing consumes it automatically, an alarm fires on its first message.',
    });

    // Grants the stream reads (DescribeStream, GetRecords, GetShardIterator, ListStreams) on this table's stream only, and sending to the queue.
    this.consumer.function.addEventSource(
      new DynamoEventSource(props.inventory, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: HISTORY_STREAM.batchSize,
        bisectBatchOnError: true,
        retryAttempts: HISTORY_STREAM.retryAttempts,
        maxRecordAge: HISTORY_STREAM.maxRecordAge,
        onFailure: new SqsDlq(this.failedRecords),
      }),
    );
  }

  get function(): IFunction {
    return this.consumer.function;
  }
}
