import { pipeline, Readable, Transform } from 'node:stream';
import { describeError, logger, SERVICE_METRICS } from '../logger.ts';
import { createEncoder, type ContentEncoding } from './content-encoding.ts';
import type { StreamedResult } from './http-handler.ts';
import { JSON_HEADERS } from './json.ts';
import { flatRecordJson } from '../int64-json.ts';

/** An element of the array: a flat record, as flatRecordJson writes it. */
type FlatRecord = Readonly<Record<string, unknown>>;

/** Logged, with the metric StreamAborted, when a streamed answer is cut after its first byte. */
export const STREAM_ABORTED_LOG_MESSAGE = 'stream aborted after the first byte';

/**
 * Lambda's cap on one streamed response, 200 MB, in its smaller reading (10^6 bytes a MB). The
 * answer is cut here, by the function, rather than by Lambda, so that it is logged and counted.
 */
export const STREAMED_RESPONSE_LIMIT_BYTES = 200_000_000;

export interface JsonArrayStreamOptions {
  /** The coding the client accepts (negotiateEncoding); undefined sends the text as it is. */
  encoding: ContentEncoding | undefined;
  /** Epoch ms at which an unfinished answer is cut: the function's own deadline. */
  deadlineAt: number;
  /**
   * Lambda's id of the invocation (context.awsRequestId), which its START, END and REPORT lines
   * carry. The abort's line names the request by API Gateway's id, `requestId`, as every line
   * written while it is served does (functions/logger.ts).
   */
  functionRequestId: string;
  /** Bytes the body may have, as sent (compressed or not); STREAMED_RESPONSE_LIMIT_BYTES by default. */
  maxBytes?: number;
}

function reportAbort(error: unknown, functionRequestId: string): void {
  logger.error(STREAM_ABORTED_LOG_MESSAGE, { functionRequestId, ...describeError(error) });
  logger.metric(SERVICE_METRICS.streamAborted, 1);
}

interface Deadline {
  /** The read, or the deadline's error if it passes first. */
  race<T>(read: Promise<T>): Promise<T>;
  /** Whether an error is the deadline's own (which reports itself). */
  caused(error: unknown): boolean;
  cancel(): void;
}

/**
 * The function's deadline for one answer. `onExpiry` runs once when it passes, whether a read
 * is under way or the client is slow to read and nothing waits on the store.
 */
function deadlineOf(deadlineAt: number, onExpiry: (error: Error) => void): Deadline {
  const error = new Error("the answer was not complete by the function's deadline");
  const remaining = () => Math.max(0, deadlineAt - Date.now());
  let passed = false;
  const expire = () => {
    if (passed) return;
    passed = true;
    onExpiry(error);
  };
  const timer = setTimeout(expire, remaining());
  return {
    // A timer per read, cleared when the read settles: racing one long-lived promise instead
    // would keep every read's result reachable from it, and the memory would grow with the listing.
    race: (read) =>
      new Promise((resolve, reject) => {
        const expiry = setTimeout(() => {
          expire();
          reject(error);
        }, remaining());
        read.then(
          (value) => {
            clearTimeout(expiry);
            resolve(value);
          },
          (failure: unknown) => {
            clearTimeout(expiry);
            reject(failure);
          },
        );
      }),
    caused: (candidate) => candidate === error,
    cancel: () => clearTimeout(timer),
  };
}

/**
 * The array's text, batch by batch. The closing bracket is written only after the last batch:
 * an answer cut short by a failure is never a well-formed shorter array.
 */
async function* arrayText(
  first: IteratorResult<readonly FlatRecord[]>,
  rest: AsyncIterator<readonly FlatRecord[]>,
  deadline: Deadline,
  functionRequestId: string,
): AsyncGenerator<string> {
  let result = first;
  let separator = '[';
  try {
    while (!result.done) {
      if (result.value.length > 0) {
        yield separator + result.value.map(flatRecordJson).join(',');
        separator = ',';
      }
      result = await deadline.race(rest.next());
    }
  } catch (error) {
    if (!deadline.caused(error)) reportAbort(error, functionRequestId);
    throw error;
  } finally {
    // The client went away, or the answer failed: stop reading the store. A read still under
    // way (cut by the deadline) ends within the store client's own bounds.
    if (!result.done) rest.return?.().catch(() => undefined);
  }
  yield separator === '[' ? '[]' : ']';
}

/** Passes the body on until it would exceed `limit` bytes, then fails instead. */
function byteBudget(limit: number, onExceeded: (error: Error) => void): Transform {
  let sent = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sent += chunk.length;
      if (sent <= limit) return done(null, chunk);
      const error = new Error(`the answer would exceed ${limit} bytes, Lambda's limit on a streamed response`);
      onExceeded(error);
      done(error);
    },
  });
}

/**
 * A 200 whose body is a JSON array, written as `rest` yields its batches: the status and headers
 * go out with the first batch (read by the caller, so that a store failing from the start is
 * still answered with an Error body), the rest follows page by page, compressed when asked.
 *
 * A failure after that (the store, or the deadline) can no longer change the status: it ends
 * the stream without the closing bracket, so the client receives invalid JSON and a broken
 * transfer, never a well-formed short array; it is logged and counted (StreamAborted).
 */
export function jsonArrayStream(
  first: IteratorResult<readonly FlatRecord[]>,
  rest: AsyncIterator<readonly FlatRecord[]>,
  options: JsonArrayStreamOptions,
): StreamedResult {
  const deadline = deadlineOf(options.deadlineAt, (error) => {
    reportAbort(error, options.functionRequestId);
    text.destroy(error);
  });
  // One batch read ahead of the client at most: memory follows the store's pages, not the inventory.
  const text = Readable.from(arrayText(first, rest, deadline, options.functionRequestId), { highWaterMark: 1 });
  text.once('close', deadline.cancel);

  const budget = byteBudget(options.maxBytes ?? STREAMED_RESPONSE_LIMIT_BYTES, (error) => reportAbort(error, options.functionRequestId));
  // A failure anywhere destroys every stage; the response stream sees it through the last one.
  if (options.encoding) pipeline(text, createEncoder(options.encoding), budget, () => undefined);
  else pipeline(text, budget, () => undefined);
  const headers: Record<string, string> = { ...JSON_HEADERS, ...(options.encoding ? { 'Content-Encoding': options.encoding } : {}) };
  return { statusCode: 200, headers, body: budget };
}
