import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { StartingPosition, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { historyConsumerLambda } from '../functions/routes.ts';
import { ServiceFunction } from './service-function.ts';

/**
 * How the stream is read. A batch is recorded whole or retried: a failing batch is split in
 * halves until the failing record stands alone (halving costs no retry), and that record is
 * tried retryAttempts more times: a record that fails every time holds its shard for about 18
 * invocations (7 halvings of 100, then 10 retries), 3 minutes if each runs to its 10 s timeout.
 * Then its batch's shard and sequence numbers (not its records) go to the on-failure queue, and
 * the shard moves on; `npm run events -- replay` reads the records back from the stream, which
 * keeps them STREAM_RETENTION_HOURS, and hands them to the consumer again.
 *
 * The consumer reports no partial failures (ReportBatchItemFailures): it records a batch stage by
 * stage (the history, then the feed, then the events), so no prefix of the batch is done before
 * the whole of it; halving isolates a failing record instead.
 *
 * No batching window: Lambda polls each shard four times a second and invokes as soon as records
 * arrive, so an answered change is in its history within about a second.
 */
export const HISTORY_STREAM = {
  batchSize: 100,
  retryAttempts: 10,
  /**
   * A batch Lambda cannot invoke at all (throttled) is retried until its records are this old,
   * so it holds its shard an hour at most, and reaches the on-failure queue with 23 of the
   * stream's 24 hours left to replay it (the queue's alarms say how many are left).
   */
  maxRecordAge: Duration.hours(1),
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
  /** Stream records the consumer gave up on: any message here is a change without its history record. */
  readonly failedRecords: Queue;

  constructor(scope: Construct, id: string, props: InventoryHistoryProps) {
    super(scope, id);
    this.consumer = new ServiceFunction(this, 'Consumer', {
      lambda: historyConsumerLambda,
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
        "This queue is itself the on-failure destination of the history stream; an operator replays its messages (npm run events -- replay), alarmed on its first message and on its oldest one's age.",
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
