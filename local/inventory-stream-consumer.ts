import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
  type Shard,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { InventoryStreamRecord } from '../functions/adapters/dynamodb/inventory-stream.ts';

/**
 * What an event source mapping does on AWS, for `npm start`: reads the inventory table's stream
 * on DynamoDB Local and hands each batch of records, in order per shard, to the same handler the
 * Lambda function runs. A batch's position is saved (checkpointFile) only after the handler has
 * recorded it, so a process killed at any point reads the batch again on its next start, and the
 * handler's writes are idempotent. DynamoDB Local keeps stream records with the data and writes
 * them with the change (checked: item versions and stream records agree after kill -9 of the
 * engine under load), so every acknowledged change is in the stream after a crash.
 */

/** Pause between two rounds that found nothing: a change shows in its history within about this much. */
export const STREAM_POLL_INTERVAL_MS = 100;
/**
 * How long the stream's shard list is used before it is described again. A shard's children appear when it
 * closes, which its last read tells (and which describes the stream again at once); the timer covers the rest.
 * Describing it on every round cost DynamoDB Local a DescribeStream ten times a second, idle or not.
 */
export const SHARD_LIST_MAX_AGE_MS = 10_000;
/** Records per GetRecords call, DynamoDB Streams' largest. */
const RECORDS_PER_CALL = 1_000;
/** Pause after a failed round (the engine restarting, the handler failing) before the next. */
const RETRY_AFTER_FAILURE_MS = 1_000;

export interface InventoryStreamConsumerOptions {
  endpoint: string;
  inventoryTable: string;
  /** Records one batch; throwing leaves the batch to be read again. */
  handle(records: InventoryStreamRecord[]): Promise<void>;
  /** Where the positions reached are kept across restarts; without it a start reads the stream from its oldest record. */
  checkpointFile?: string;
  pollIntervalMs?: number;
  onError?(error: unknown): void;
}

export interface InventoryStreamConsumer {
  /** Resolves once every record written before the call has been handled. */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
}

interface Checkpoint {
  streamArn: string;
  /** Per shard: the last sequence number handled, and whether the shard is closed and handled to its end. */
  shards: Record<string, { sequence?: string; finished?: boolean }>;
}

async function readCheckpoint(file: string | undefined, streamArn: string): Promise<Checkpoint> {
  if (file && existsSync(file)) {
    const saved = JSON.parse(await readFile(file, 'utf8')) as Checkpoint;
    // A table made anew has a new stream: positions in the old one mean nothing there.
    if (saved.streamArn === streamArn) return saved;
  }
  return { streamArn, shards: {} };
}

export async function startInventoryStreamConsumer(options: InventoryStreamConsumerOptions): Promise<InventoryStreamConsumer> {
  const config = { endpoint: options.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
  const tables = new DynamoDBClient(config);
  const streams = new DynamoDBStreamsClient(config);
  const { Table } = await tables.send(new DescribeTableCommand({ TableName: options.inventoryTable }));
  tables.destroy();
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`The table ${options.inventoryTable} has no stream: its history cannot be recorded.`);
  const checkpoint = await readCheckpoint(options.checkpointFile, streamArn);
  const iterators = new Map<string, string>();
  const pollIntervalMs = options.pollIntervalMs ?? STREAM_POLL_INTERVAL_MS;
  /** The shard list as last described, and when; dropped when a shard closes or a round fails. */
  let described: { shards: Shard[]; atMs: number } | undefined;

  async function saveCheckpoint(): Promise<void> {
    if (!options.checkpointFile) return;
    // Written whole and renamed over the old one: a kill leaves one checkpoint or the other, never half of one.
    const temporary = `${options.checkpointFile}.tmp`;
    await writeFile(temporary, JSON.stringify(checkpoint));
    await rename(temporary, options.checkpointFile);
  }

  async function shards(): Promise<Shard[]> {
    if (described && Date.now() - described.atMs < SHARD_LIST_MAX_AGE_MS) return described.shards;
    const atMs = Date.now();
    const all: Shard[] = [];
    let exclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await streams.send(
        new DescribeStreamCommand({
          StreamArn: streamArn,
          ...(exclusiveStartShardId ? { ExclusiveStartShardId: exclusiveStartShardId } : {}),
        }),
      );
      all.push(...(StreamDescription?.Shards ?? []));
      exclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
    described = { shards: all, atMs };
    return all;
  }

  async function iteratorOf(shardId: string): Promise<string | undefined> {
    const known = iterators.get(shardId);
    if (known) return known;
    const sequence = checkpoint.shards[shardId]?.sequence;
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(sequence ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: sequence } : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return ShardIterator;
  }

  /** Reads one shard up to its present end, handling each batch; true if it found records. */
  async function drain(shardId: string): Promise<boolean> {
    let found = false;
    for (;;) {
      const iterator = await iteratorOf(shardId);
      let records: StreamRecord[] = [];
      let next: string | undefined;
      try {
        if (iterator)
          ({ Records: records = [], NextShardIterator: next } = await streams.send(
            new GetRecordsCommand({ ShardIterator: iterator, Limit: RECORDS_PER_CALL }),
          ));
      } catch (error) {
        if (!(error instanceof ExpiredIteratorException || error instanceof TrimmedDataAccessException)) throw error;
        // An old iterator, or a position the stream has trimmed (a stop longer than its retention): start again from what it keeps.
        iterators.delete(shardId);
        if (error instanceof TrimmedDataAccessException) delete checkpoint.shards[shardId];
        continue;
      }
      if (records.length > 0) {
        await options.handle(records as InventoryStreamRecord[]);
        found = true;
        checkpoint.shards[shardId] = { sequence: records.at(-1)!.dynamodb!.SequenceNumber! };
      }
      if (!next) {
        checkpoint.shards[shardId] = { ...checkpoint.shards[shardId], finished: true };
        iterators.delete(shardId);
        // Its children, if any, are in the stream's next description.
        described = undefined;
      } else iterators.set(shardId, next);
      if (records.length > 0 || !next) await saveCheckpoint();
      if (records.length === 0 || !next) return found;
    }
  }

  /** One pass over every shard whose parent is handled to its end: a child's records follow its parent's, per key. */
  async function round(): Promise<boolean> {
    const all = await shards();
    const ids = new Set(all.map((shard) => shard.ShardId));
    let found = false;
    for (const shard of all) {
      const shardId = shard.ShardId!;
      if (checkpoint.shards[shardId]?.finished) continue;
      const parent = shard.ParentShardId;
      if (parent && ids.has(parent) && !checkpoint.shards[parent]?.finished) continue;
      if (await drain(shardId)) found = true;
    }
    return found;
  }

  let stopped = false;
  let waiting: Array<{ resolve(): void; reject(error: Error): void }> = [];
  const running = (async () => {
    while (!stopped) {
      const waiters = waiting;
      waiting = [];
      try {
        const found = await round();
        for (const waiter of waiters) waiter.resolve();
        if (!found && !stopped) await sleep(pollIntervalMs);
      } catch (error) {
        waiting.unshift(...waiters);
        iterators.clear();
        described = undefined;
        if (!stopped) {
          options.onError?.(error);
          await sleep(RETRY_AFTER_FAILURE_MS);
        }
      }
    }
  })();

  return {
    caughtUp: () =>
      stopped
        ? Promise.reject(new Error('the stream consumer is closed'))
        : new Promise<void>((resolve, reject) => waiting.push({ resolve, reject })),
    async close() {
      stopped = true;
      await running;
      for (const waiter of waiting) waiter.reject(new Error('the stream consumer closed before it caught up'));
      streams.destroy();
    },
  };
}
