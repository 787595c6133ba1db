import {
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ResourceNotFoundException,
  TrimmedDataAccessException,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { STREAM_RETENTION_HOURS } from '../../lib/deployments.ts';

/** A deployed stage's history consumer and its on-failure queue, from its stack outputs. */
export interface StageStreamConsumer {
  failedRecordsQueueUrl: string;
  consumerFunctionName: string;
}

export interface StreamReplayClients {
  sqs: SQSClient;
  streams: DynamoDBStreamsClient;
  lambda: LambdaClient;
}

/**
 * What Lambda puts in a stream's on-failure destination (an SQS queue) for a batch it gave up on:
 * where the batch lies in the stream, not its records.
 */
interface StreamBatchInfo {
  shardId: string;
  startSequenceNumber: string;
  endSequenceNumber: string;
  approximateArrivalOfFirstRecord: string;
  batchSize: number;
  streamArn: string;
}

/** Long enough for one replay to read, replay and delete every message it received. */
const REPLAY_VISIBILITY_SECONDS = 30 * 60;
/** GetRecords' largest page. */
const RECORDS_PER_CALL = 1_000;
/** GetRecords may answer empty pages before the records that are there: this many in a row, and the batch is left unread. */
const EMPTY_PAGES_AT_MOST = 5;

class RecordsGone extends Error {}

function batchInfoOf(message: Message): StreamBatchInfo | undefined {
  try {
    const info = (JSON.parse(message.Body ?? '') as { DDBStreamBatchInfo?: Partial<StreamBatchInfo> }).DDBStreamBatchInfo;
    const complete =
      info &&
      [info.shardId, info.startSequenceNumber, info.endSequenceNumber, info.approximateArrivalOfFirstRecord, info.streamArn].every(
        (field) => typeof field === 'string',
      ) &&
      Number.isInteger(info.batchSize);
    return complete ? (info as StreamBatchInfo) : undefined;
  } catch {
    return undefined;
  }
}

/** Sequence numbers are decimal strings of up to 40 digits: compared as such, not as doubles. */
const sequence = (text: string | undefined) => BigInt(text ?? '0');

/** Oldest first, and within a shard in sequence order, so each pet's changes reach the consumer in the order it missed them. */
function streamOrder(a: StreamBatchInfo, b: StreamBatchInfo): number {
  const byArrival = Date.parse(a.approximateArrivalOfFirstRecord) - Date.parse(b.approximateArrivalOfFirstRecord);
  if (a.shardId !== b.shardId) return byArrival || a.shardId.localeCompare(b.shardId);
  const bySequence = sequence(a.startSequenceNumber) - sequence(b.startSequenceNumber);
  return bySequence === 0n ? 0 : bySequence < 0n ? -1 : 1;
}

/** The batch's records, read back from the stream from its first sequence number to its last. */
async function recordsOf(streams: DynamoDBStreamsClient, batch: StreamBatchInfo): Promise<StreamRecord[]> {
  const last = sequence(batch.endSequenceNumber);
  const records: StreamRecord[] = [];
  try {
    let { ShardIterator: iterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: batch.streamArn,
        ShardId: batch.shardId,
        ShardIteratorType: 'AT_SEQUENCE_NUMBER',
        SequenceNumber: batch.startSequenceNumber,
      }),
    );
    let emptyPages = 0;
    while (iterator && records.length < batch.batchSize && emptyPages < EMPTY_PAGES_AT_MOST) {
      const { Records = [], NextShardIterator } = await streams.send(
        new GetRecordsCommand({ ShardIterator: iterator, Limit: Math.min(RECORDS_PER_CALL, batch.batchSize - records.length) }),
      );
      emptyPages = Records.length === 0 ? emptyPages + 1 : 0;
      const inBatch = Records.filter((record) => sequence(record.dynamodb?.SequenceNumber) <= last);
      records.push(...inBatch);
      if (inBatch.length < Records.length) break;
      iterator = NextShardIterator;
    }
  } catch (error) {
    if (error instanceof TrimmedDataAccessException || error instanceof ResourceNotFoundException) throw new RecordsGone();
    throw error;
  }
  return records;
}

/** A record as Lambda hands it to the consumer: GetRecords' record, with the stream's ARN and the creation time in seconds. */
function asEventRecord(record: StreamRecord, streamArn: string) {
  const { ApproximateCreationDateTime, ...change } = record.dynamodb ?? {};
  return {
    ...record,
    eventSourceARN: streamArn,
    dynamodb: {
      ...change,
      ...(ApproximateCreationDateTime ? { ApproximateCreationDateTime: ApproximateCreationDateTime.getTime() / 1000 } : {}),
    },
  };
}

/** The deployed consumer, invoked with the records as its event source would: its error, if it failed. */
async function invokeConsumer(
  lambda: LambdaClient,
  functionName: string,
  records: StreamRecord[],
  streamArn: string,
): Promise<string | undefined> {
  const event = { Records: records.map((record) => asEventRecord(record, streamArn)) };
  const { FunctionError, Payload } = await lambda.send(
    new InvokeCommand({ FunctionName: functionName, Payload: new TextEncoder().encode(JSON.stringify(event)) }),
  );
  if (!FunctionError) return undefined;
  const answer = Payload ? new TextDecoder().decode(Payload) : '';
  try {
    const { errorType, errorMessage } = JSON.parse(answer) as { errorType?: string; errorMessage?: string };
    return `${errorType ?? FunctionError}: ${errorMessage ?? ''}`;
  } catch {
    return `${FunctionError}: ${answer}`;
  }
}

function timeLeft(batch: StreamBatchInfo): string {
  const dropsAtMs = Date.parse(batch.approximateArrivalOfFirstRecord) + STREAM_RETENTION_HOURS * 3_600_000;
  const minutes = Math.max(0, Math.floor((dropsAtMs - Date.now()) / 60_000));
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min left before the stream drops its records`;
}

async function receiveAll(sqs: SQSClient, queueUrl: string): Promise<Message[]> {
  const received = new Map<string, Message>();
  for (;;) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        VisibilityTimeout: REPLAY_VISIBILITY_SECONDS,
        // Long polling asks every SQS server, so an empty answer means an empty queue.
        WaitTimeSeconds: 1,
      }),
    );
    if (Messages.length === 0) return [...received.values()];
    for (const message of Messages) received.set(message.MessageId!, message);
  }
}

/**
 * Replays the batches the history consumer gave up on. Each on-failure message says where its
 * batch lies in the stream: the records are read back from there (while the stream keeps them,
 * STREAM_RETENTION_HOURS) and handed to the deployed consumer function, in the stream's order,
 * and the message is deleted only once the consumer has recorded them. The consumer stores
 * history and feed records by petId and version, so a batch replayed twice is recorded once (its
 * events may go out twice, as any retry's). A batch that fails again is kept, and so is every
 * later batch of its shard, which must not overtake it; a kept message is visible again at once.
 */
export async function replayFailedStreamBatches(
  clients: StreamReplayClients,
  stage: StageStreamConsumer,
  print: (line: string) => void,
): Promise<void> {
  const messages = await receiveAll(clients.sqs, stage.failedRecordsQueueUrl);
  const pending = new Set(messages);
  try {
    const batches = messages.flatMap((message) => {
      const batch = batchInfoOf(message);
      if (!batch) print(`Kept message ${message.MessageId}: not a stream batch's failure record.`);
      return batch ? [{ message, batch }] : [];
    });
    batches.sort((a, b) => streamOrder(a.batch, b.batch));
    const failedShards = new Set<string>();
    let replayed = 0;
    for (const { message, batch } of batches) {
      const shard = `${batch.streamArn}/${batch.shardId}`;
      const name = `${batch.shardId} ${batch.startSequenceNumber}…${batch.endSequenceNumber}`;
      if (failedShards.has(shard)) {
        print(`Kept ${name}: an earlier batch of its shard failed; ${timeLeft(batch)}.`);
        continue;
      }
      let records: StreamRecord[];
      try {
        records = await recordsOf(clients.streams, batch);
      } catch (error) {
        if (!(error instanceof RecordsGone)) throw error;
        print(
          `Kept ${name}: the stream no longer holds its records (older than ${STREAM_RETENTION_HOURS} hours); its changes stand in the inventory without their history and feed records and events.`,
        );
        continue;
      }
      if (records.length !== batch.batchSize) {
        failedShards.add(shard);
        print(`Kept ${name}: the stream gave ${records.length} of its ${batch.batchSize} records; ${timeLeft(batch)}.`);
        continue;
      }
      const failure = await invokeConsumer(clients.lambda, stage.consumerFunctionName, records, batch.streamArn);
      if (failure) {
        failedShards.add(shard);
        print(`Kept ${name}: the consumer failed again (${failure}); ${timeLeft(batch)}.`);
        continue;
      }
      await clients.sqs.send(new DeleteMessageCommand({ QueueUrl: stage.failedRecordsQueueUrl, ReceiptHandle: message.ReceiptHandle }));
      pending.delete(message);
      replayed += 1;
      print(`Replayed ${name}: ${records.length} record${records.length === 1 ? '' : 's'}.`);
    }
    const kept = messages.length - replayed;
    print(
      `Replayed ${replayed} of ${messages.length} failed batch${messages.length === 1 ? '' : 'es'}; ${kept} kept in ${stage.failedRecordsQueueUrl}.`,
    );
  } finally {
    // What was not replayed is visible again at once: to the next replay, and to the queue's alarm.
    await Promise.allSettled(
      [...pending].map((message) =>
        clients.sqs.send(
          new ChangeMessageVisibilityCommand({
            QueueUrl: stage.failedRecordsQueueUrl,
            ReceiptHandle: message.ReceiptHandle,
            VisibilityTimeout: 0,
          }),
        ),
      ),
    );
  }
}
