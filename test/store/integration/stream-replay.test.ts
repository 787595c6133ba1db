import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import {
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandInput,
  GetShardIteratorCommand,
  type GetShardIteratorCommandInput,
  type _Record as StreamRecord,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import { InvokeCommand, type InvokeCommandInput, LambdaClient } from '@aws-sdk/client-lambda';
import { ChangeMessageVisibilityCommand, DeleteMessageCommand, type Message, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRecordInventoryChangesHandler } from '../../../functions/handlers/record-inventory-changes-handler.ts';
import { writesOfRecords } from '../../../functions/adapters/dynamodb/inventory-stream.ts';
import { STACK_OUTPUTS } from '../../../lib/deployments.ts';
import { runEventsCommand } from '../../../tools/events/cli.ts';
import { awsEnvironment, stagingStackWithOutputs } from '../../support/aws-environment.ts';
import { startTestStore, type TestStore } from '../../support/local-store.ts';

/**
 * `npm run events -- replay --stage`: the history consumer's on-failure queue, the stream and the
 * consumer function mocked (SQS, DynamoDB Streams, Lambda), the function running the real
 * consumer over the history and feed tables on DynamoDB Local, so that recording a batch twice
 * is seen, or not, where it would happen.
 */

const cloudFormation = mockClient(CloudFormationClient);
const sqs = mockClient(SQSClient);
const streams = mockClient(DynamoDBStreamsClient);
const lambda = mockClient(LambdaClient);

const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/111122223333/Staging-HistoryFailedRecords';
const CONSUMER = 'PetStoreInventory-Staging-HistoryConsumer';
const STREAM_ARN = 'arn:aws:dynamodb:eu-west-1:111122223333:table/Staging-Inventory/stream/2026-11-24T00:00:00.000';
const SHARD = 'shardId-00000001764000000000-a1b2c3d4';
const OTHER_SHARD = 'shardId-00000001764000000000-e5f6a7b8';

let store: TestStore;
beforeAll(async () => {
  store = await startTestStore();
});
afterAll(() => store?.close());

/** What each shard holds, in order. */
const shards = new Map<string, StreamRecord[]>();
/** What happened, in order: each invocation of the consumer with its records' pets and versions, each deleted message. */
let timeline: string[];
/** Each change the consumer announced (its events), as pet@version. */
let announced: string[];
/** Empty pages GetRecords answers before it gives records, as DynamoDB Streams may. */
let emptyPagesAhead: number;

function streamRecord(sequenceNumber: string, petId: number, version: number, createdAt: Date): StreamRecord {
  const image = (at: number) =>
    marshall({
      shard: 0,
      petId,
      quantity: at * 10,
      status: 'available',
      version: at,
      lastChange: {
        kind: 'adjustment',
        requestId: `request-${petId}-${at}`,
        keyId: 'key_3f9a2c7b1e5d',
        reason: 'arrival',
        occurredAt: createdAt.toISOString(),
      },
    }) as NonNullable<StreamRecord['dynamodb']>['NewImage'];
  return {
    eventID: `event-${sequenceNumber}`,
    eventName: version === 1 ? 'INSERT' : 'MODIFY',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'eu-west-1',
    dynamodb: {
      ApproximateCreationDateTime: createdAt,
      Keys: marshall({ shard: 0, petId }) as NonNullable<StreamRecord['dynamodb']>['Keys'],
      ...(version > 1 ? { OldImage: image(version - 1) } : {}),
      NewImage: image(version),
      SequenceNumber: sequenceNumber,
      SizeBytes: 180,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

/** A shard's records: pet and version each, sequence numbers past what a double holds exactly. */
function shardHolding(shardId: string, changes: Array<[petId: number, version: number]>, createdAt: Date): StreamRecord[] {
  const records = changes.map(([petId, version], index) => streamRecord(`4000000000000000000${10 + index}`, petId, version, createdAt));
  shards.set(shardId, records);
  return records;
}

/** What Lambda sends to the on-failure destination: where the batch lies in the stream, not its records. */
function failedBatch(shardId: string, records: StreamRecord[], createdAt: Date): Message {
  const start = records[0]!.dynamodb!.SequenceNumber!;
  const arrival = createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    MessageId: `message-${shardId}-${start}`,
    ReceiptHandle: `receipt-${shardId}-${start}`,
    Body: JSON.stringify({
      requestContext: {
        requestId: 'c9b8a7d6-0000-4000-8000-000000000000',
        functionArn: `arn:aws:lambda:eu-west-1:111122223333:function:${CONSUMER}`,
        condition: 'RetryAttemptsExhausted',
        approximateInvokeCount: 11,
      },
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      version: '1.0',
      timestamp: arrival,
      DDBStreamBatchInfo: {
        shardId,
        startSequenceNumber: start,
        endSequenceNumber: records.at(-1)!.dynamodb!.SequenceNumber!,
        approximateArrivalOfFirstRecord: arrival,
        approximateArrivalOfLastRecord: arrival,
        batchSize: records.length,
        streamArn: STREAM_ARN,
      },
    }),
  };
}

/** The queue hands out these messages, a receive at a time, then nothing. */
function queueHolding(...receives: Message[][]) {
  let receiving = sqs.on(ReceiveMessageCommand);
  for (const Messages of receives) receiving = receiving.resolvesOnce({ Messages });
  receiving.resolves({});
}

/** The deployed consumer: the real handler over the test's tables; failing for the pets given, as a poison record does. */
function consumerFailingFor(poisonPetIds: number[] = []) {
  const handler = createRecordInventoryChangesHandler({
    writesOf: writesOfRecords,
    history: store.dependencies.history,
    changeFeed: store.dependencies.changeFeed,
    publishers: [{ publish: async (events) => void announced.push(...events.map(({ petId, position }) => `${petId}@${position}`)) }],
  });
  lambda.on(InvokeCommand).callsFake(async (input: InvokeCommandInput) => {
    const event = JSON.parse(new TextDecoder().decode(input.Payload as Uint8Array)) as DynamoDBStreamEvent;
    const pets = event.Records.map((record) => `${record.dynamodb!.NewImage!.petId!.N}@${record.dynamodb!.NewImage!.version!.N}`);
    timeline.push(`invoke ${pets.join(' ')}`);
    if (event.Records.some((record) => poisonPetIds.includes(Number(record.dynamodb!.NewImage!.petId!.N))))
      return {
        StatusCode: 200,
        FunctionError: 'Unhandled',
        Payload: new TextEncoder().encode(JSON.stringify({ errorType: 'TypeError', errorMessage: 'the poison record' })),
      };
    await handler(event);
    return { StatusCode: 200 };
  });
}

async function events(...argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runEventsCommand(argv, (line) => lines.push(line));
  return lines;
}

const historyOf = async (petId: bigint) =>
  (await store.dependencies.history.page(petId, { limit: 100, afterVersion: 0 })).changes.map((change) => change.version);
const feed = async () =>
  (await store.dependencies.changeFeed.page({ afterSeq: 0, limit: 100 })).entries.map(
    ({ seq, data }) => `${seq}:${data.petId}@${data.version}`,
  );

beforeEach(() => {
  awsEnvironment({ AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'AKIATESTONLY', AWS_SECRET_ACCESS_KEY: 'test-only' });
  for (const client of [cloudFormation, sqs, streams, lambda]) client.reset();
  shards.clear();
  timeline = [];
  announced = [];
  emptyPagesAhead = 0;
  cloudFormation.on(DescribeStacksCommand).resolves(
    stagingStackWithOutputs({
      [STACK_OUTPUTS.historyFailedRecordsQueueUrl]: QUEUE_URL,
      [STACK_OUTPUTS.historyConsumerFunctionName]: CONSUMER,
    }),
  );
  // Iterators name a position in the shard; GetRecords reads from there, a page at a time.
  streams.on(GetShardIteratorCommand).callsFake(({ ShardId, ShardIteratorType, SequenceNumber }: GetShardIteratorCommandInput) => {
    const position = shards.get(ShardId!)!.findIndex((record) => record.dynamodb!.SequenceNumber === SequenceNumber);
    return { ShardIterator: ShardIteratorType === 'AT_SEQUENCE_NUMBER' && position >= 0 ? `${ShardId}#${position}` : undefined };
  });
  streams.on(GetRecordsCommand).callsFake(({ ShardIterator, Limit = 1_000 }: GetRecordsCommandInput) => {
    const [shardId, position] = ShardIterator!.split('#') as [string, string];
    if (emptyPagesAhead > 0) {
      emptyPagesAhead -= 1;
      return { Records: [], NextShardIterator: ShardIterator };
    }
    const from = Number(position);
    const records = shards.get(shardId)!.slice(from, from + Limit);
    return { Records: records, NextShardIterator: `${shardId}#${from + records.length}` };
  });
  sqs.on(DeleteMessageCommand).callsFake(({ ReceiptHandle }) => {
    timeline.push(`delete ${ReceiptHandle}`);
    return {};
  });
  sqs.on(ChangeMessageVisibilityCommand).resolves({});
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('npm run events -- replay --stage', () => {
  it("replays each failed batch once, in the stream's order, and deletes its message only after the consumer recorded it", async () => {
    const createdAt = new Date(Date.now() - 2 * 3_600_000);
    // Pet 7's versions 1 to 3 and pet 8's 1 and 2; the consumer gave up on the second to fifth, in two batches.
    const records = shardHolding(
      SHARD,
      [
        [7, 1],
        [7, 2],
        [8, 1],
        [7, 3],
        [8, 2],
      ],
      createdAt,
    );
    const first = failedBatch(SHARD, records.slice(1, 3), createdAt);
    const second = failedBatch(SHARD, records.slice(3, 5), createdAt);
    // SQS hands them out in any order: the later batch first, here.
    queueHolding([second], [first]);
    consumerFailingFor();

    const lines = await events('replay', '--stage', 'staging');

    expect(streams).toHaveReceivedCommandWith(GetShardIteratorCommand, {
      StreamArn: STREAM_ARN,
      ShardId: SHARD,
      ShardIteratorType: 'AT_SEQUENCE_NUMBER',
      SequenceNumber: records[1]!.dynamodb!.SequenceNumber,
    });
    expect(lambda).toHaveReceivedCommandWith(InvokeCommand, { FunctionName: CONSUMER });
    expect(timeline).toEqual([`invoke 7@2 8@1`, `delete ${first.ReceiptHandle}`, `invoke 7@3 8@2`, `delete ${second.ReceiptHandle}`]);
    expect(announced).toEqual(['7@2', '8@1', '7@3', '8@2']);
    expect(await historyOf(7n)).toEqual([2, 3]);
    expect(await historyOf(8n)).toEqual([1, 2]);
    expect(await feed()).toEqual(['1:7@2', '2:8@1', '3:7@3', '4:8@2']);
    expect(lines).toEqual([
      `Replayed ${SHARD} 400000000000000000011…400000000000000000012: 2 records.`,
      `Replayed ${SHARD} 400000000000000000013…400000000000000000014: 2 records.`,
      `Replayed 2 of 2 failed batches; 0 kept in ${QUEUE_URL}.`,
    ]);
    expect(sqs).not.toHaveReceivedCommand(ChangeMessageVisibilityCommand);

    // The same message once more (SQS delivers at least once, or an operator runs the replay twice): recorded once all the same.
    sqs.resetHistory();
    queueHolding([first]);
    timeline = [];

    await events('replay', '--stage', 'staging');

    expect(timeline).toEqual([`invoke 7@2 8@1`, `delete ${first.ReceiptHandle}`]);
    expect(await historyOf(7n)).toEqual([2, 3]);
    expect(await feed()).toEqual(['1:7@2', '2:8@1', '3:7@3', '4:8@2']);
  });

  it('keeps a batch the consumer fails on again, and the later batches of its shard, visible at once; other shards go on', async () => {
    const createdAt = new Date(Date.now() - 2 * 3_600_000 + 30_000);
    const poisoned = shardHolding(
      SHARD,
      [
        [9, 4],
        [10, 1],
      ],
      createdAt,
    );
    const healthy = shardHolding(OTHER_SHARD, [[11, 1]], createdAt);
    const poisonBatch = failedBatch(SHARD, poisoned.slice(0, 1), createdAt);
    const behindIt = failedBatch(SHARD, poisoned.slice(1, 2), createdAt);
    const otherShard = failedBatch(OTHER_SHARD, healthy, createdAt);
    queueHolding([behindIt, otherShard, poisonBatch]);
    consumerFailingFor([9]);

    const lines = await events('replay', '--stage', 'staging');

    expect(timeline).toEqual(['invoke 9@4', 'invoke 11@1', `delete ${otherShard.ReceiptHandle}`]);
    expect(await historyOf(11n)).toEqual([1]);
    expect(await historyOf(10n)).toEqual([]);
    const madeVisible = sqs.commandCalls(ChangeMessageVisibilityCommand).map(({ args: [{ input }] }) => input);
    expect(madeVisible.map(({ ReceiptHandle, VisibilityTimeout }) => [ReceiptHandle, VisibilityTimeout]).sort()).toEqual(
      [
        [poisonBatch.ReceiptHandle, 0],
        [behindIt.ReceiptHandle, 0],
      ].sort(),
    );
    expect(lines).toEqual([
      `Kept ${SHARD} 400000000000000000010…400000000000000000010: the consumer failed again (TypeError: the poison record); 22 h 0 min left before the stream drops its records.`,
      `Kept ${SHARD} 400000000000000000011…400000000000000000011: an earlier batch of its shard failed; 22 h 0 min left before the stream drops its records.`,
      `Replayed ${OTHER_SHARD} 400000000000000000010…400000000000000000010: 1 record.`,
      `Replayed 1 of 3 failed batches; 2 kept in ${QUEUE_URL}.`,
    ]);
  });

  it('says which batch the stream no longer holds, and keeps its message', async () => {
    const createdAt = new Date(Date.now() - 25 * 3_600_000);
    const gone = failedBatch(SHARD, shardHolding(SHARD, [[12, 2]], createdAt), createdAt);
    queueHolding([gone]);
    streams.on(GetShardIteratorCommand).rejects(new TrimmedDataAccessException({ message: 'trimmed', $metadata: {} }));
    consumerFailingFor();

    const lines = await events('replay', '--stage', 'staging');

    expect(lambda).not.toHaveReceivedCommand(InvokeCommand);
    expect(sqs).not.toHaveReceivedCommand(DeleteMessageCommand);
    expect(sqs).toHaveReceivedCommandWith(ChangeMessageVisibilityCommand, { ReceiptHandle: gone.ReceiptHandle, VisibilityTimeout: 0 });
    expect(lines[0]).toBe(
      `Kept ${SHARD} 400000000000000000010…400000000000000000010: the stream no longer holds its records (older than 24 hours); its changes stand in the inventory without their history and feed records and events.`,
    );
  });

  it('reads on past empty pages of the stream, and keeps a batch it cannot read whole and a message that is no batch', async () => {
    const createdAt = new Date(Date.now() - 2 * 3_600_000 + 30_000);
    const readable = failedBatch(OTHER_SHARD, shardHolding(OTHER_SHARD, [[13, 1]], createdAt), createdAt);
    const unread = failedBatch(SHARD, shardHolding(SHARD, [[14, 1]], createdAt), createdAt);
    const stray: Message = { MessageId: 'stray', ReceiptHandle: 'receipt-stray', Body: '{"note":"sent by hand"}' };
    queueHolding([unread, stray, readable]);
    consumerFailingFor();
    // SHARD's batch, read first, gets five empty pages in a row and is left unread; OTHER_SHARD's gets four, then its record.
    emptyPagesAhead = 9;

    const lines = await events('replay', '--stage', 'staging');

    expect(timeline).toEqual(['invoke 13@1', `delete ${readable.ReceiptHandle}`]);
    expect(
      sqs
        .commandCalls(ChangeMessageVisibilityCommand)
        .map(({ args: [{ input }] }) => input.ReceiptHandle)
        .sort(),
    ).toEqual([stray.ReceiptHandle, unread.ReceiptHandle].sort());
    expect(lines).toEqual([
      "Kept message stray: not a stream batch's failure record.",
      `Kept ${SHARD} 400000000000000000010…400000000000000000010: the stream gave 0 of its 1 records; 22 h 0 min left before the stream drops its records.`,
      `Replayed ${OTHER_SHARD} 400000000000000000010…400000000000000000010: 1 record.`,
      `Replayed 1 of 3 failed batches; 2 kept in ${QUEUE_URL}.`,
    ]);
  });
});

describe('npm run events -- replay', () => {
  it('says the local store has nothing to replay, and why, without any AWS call', async () => {
    const lines = await events('replay');

    expect(lines).toEqual([
      "Nothing to replay in the local store: npm start's stream consumer gives up on no batch, it retries a failing one every second until it is recorded (each failure is logged).",
    ]);
    expect(cloudFormation.calls()).toHaveLength(0);
    expect(sqs.calls()).toHaveLength(0);
  });
});
