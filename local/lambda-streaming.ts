import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { ResponseHead } from '../functions/http/answer-headers.ts';
import type { HttpHandler, StreamedHttpHandler } from '../functions/http/http-handler.ts';

/**
 * Lambda response streaming outside Lambda: for the local server, the tests and the benchmarks,
 * which run the same streamed handlers as the deployed functions.
 *
 * On Lambda, the Node.js runtime provides the global `awslambda`: `streamifyResponse` marks a
 * handler to be called with a response stream, and `HttpResponseStream.from` makes the first
 * write of that stream send the HTTP prelude (the status and headers as JSON, then 8 NUL
 * bytes), which API Gateway turns into the answer's status line and headers before passing the
 * rest on as the body (aws-lambda-nodejs-runtime-interface-client, HttpResponseStream.js).
 * Middy's streaming mode calls both. What follows does the same, byte for byte, and reads the
 * stream back as API Gateway does.
 */

/** The property the runtime reads to invoke a handler with a response stream. */
const STREAMING_MARKER = Symbol.for('aws.lambda.runtime.handler.streaming');
const STREAM_RESPONSE = 'response';
const PRELUDE_DELIMITER = Buffer.alloc(8);

interface Prelude extends ResponseHead {
  multiValueHeaders?: Record<string, string[]>;
}

/**
 * Gives the `awslambda` global the runtime's streaming functions where it lacks them (everywhere
 * but on Lambda). The global may exist already: the AWS SDK keeps its invocation store in it.
 */
export function provideLambdaStreaming(): void {
  const global = globalThis as { awslambda?: Record<string, unknown> };
  const awslambda = (global.awslambda ??= {});
  if (typeof awslambda.streamifyResponse === 'function') return;
  Object.assign(awslambda, {
    streamifyResponse: <Handler extends object>(handler: Handler) => Object.assign(handler, { [STREAMING_MARKER]: STREAM_RESPONSE }),
    HttpResponseStream: {
      from(stream: Writable, prelude: Prelude): Writable {
        const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
        let preludeSent = false;
        stream.write = ((chunk: unknown, ...rest: unknown[]) => {
          if (!preludeSent) {
            preludeSent = true;
            write(JSON.stringify(prelude));
            write(PRELUDE_DELIMITER);
          }
          return write(chunk, ...rest);
        }) as Writable['write'];
        return stream;
      },
    },
  });
}

/** Whether the runtime would call this handler with a response stream. */
export function isStreamedHandler(handler: object): handler is StreamedHttpHandler {
  return (handler as Record<symbol, unknown>)[STREAMING_MARKER] === STREAM_RESPONSE;
}

/** Where a streamed answer goes once it is read: the head first, then the body in chunks. */
export interface AnswerSink {
  head(head: ResponseHead): void;
  /** Calls `done` when the sink can take more (backpressure). */
  body(chunk: Buffer, done: () => void): void;
  end(done: () => void): void;
}

/** The response stream handed to a streamed handler, read the way API Gateway reads it: prelude, delimiter, body. */
class LambdaResponseStream extends Writable {
  private pending: Buffer | undefined = Buffer.alloc(0);
  /** The error the handler destroyed this stream with, if it did (the host cuts it without one). */
  destroyedWith: Error | undefined;

  constructor(private readonly sink: AnswerSink) {
    super();
    // Its errors reach the host through the invocation's outcome (destroyedWith, the handler's failure), not as events.
    this.on('error', () => undefined);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.pending === undefined) {
      this.sink.body(chunk, done);
      return;
    }
    const received = Buffer.concat([this.pending, chunk]);
    const at = received.indexOf(PRELUDE_DELIMITER);
    if (at < 0) {
      this.pending = received;
      done();
      return;
    }
    this.pending = undefined;
    const { statusCode, headers, multiValueHeaders } = JSON.parse(received.subarray(0, at).toString('utf8')) as Prelude;
    this.sink.head({ statusCode, headers: { ...headers, ...multiValueHeaders } as ResponseHead['headers'] });
    const rest = received.subarray(at + PRELUDE_DELIMITER.length);
    if (rest.length > 0) this.sink.body(rest, done);
    else done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    if (error) this.destroyedWith = error;
    done(error);
  }

  override _final(done: (error?: Error | null) => void): void {
    if (this.pending !== undefined) done(new Error('the handler ended its response stream without a prelude'));
    else this.sink.end(() => done());
  }
}

/** A streamed handler destroyed the runtime's response stream, which on Lambda ends its process (see streamedHttpHandler). */
export class ResponseStreamDestroyedError extends Error {
  override name = 'ResponseStreamDestroyedError';

  constructor(cause: Error) {
    super('the handler destroyed its response stream: on Lambda the answer is cut without the error trailers and the process exits', {
      cause,
    });
  }
}

export type InvokedOutcome =
  /** The head went out; `aborted` is set when the handler failed after it, cutting the body. */
  | { headSent: true; statusCode: number; aborted?: unknown }
  /** The handler failed before any byte of its answer: API Gateway answers for it (a 5xx). */
  | { headSent: false; failure: unknown };

export type StreamedOutcome =
  | InvokedOutcome
  /** The client closed the connection before any byte of the answer: there is nobody to answer. */
  | { headSent: false; clientGone: true };

/** Invokes a streamed handler as the runtime does and hands what it writes to `sink`; `stream` lets the host cut it. */
export async function invokeStreamed(
  handler: StreamedHttpHandler,
  event: APIGatewayProxyEvent,
  context: Context,
  sink: AnswerSink,
  onStream: (stream: Writable) => void = () => undefined,
): Promise<InvokedOutcome> {
  let statusCode: number | undefined;
  const stream = new LambdaResponseStream({
    ...sink,
    head: (head) => {
      statusCode = head.statusCode;
      sink.head(head);
    },
  });
  onStream(stream);
  try {
    await handler(event, stream, context);
  } catch (error) {
    if (statusCode === undefined) return { headSent: false, failure: error };
    // Under the Lambda runtime, a handler that destroys its response stream cuts the answer
    // without the error trailers and ends the process: reported as such, not as the failure.
    if (stream.destroyedWith) return { headSent: true, statusCode, aborted: new ResponseStreamDestroyedError(stream.destroyedWith) };
    // As the runtime ends a failed invocation's response (with its error trailers): nothing more
    // is written to it, and whatever still pipes into it settles.
    stream.destroy();
    return { headSent: true, statusCode, aborted: error };
  }
  return statusCode === undefined
    ? { headSent: false, failure: new Error('the handler answered nothing') }
    : { headSent: true, statusCode };
}

/**
 * Streams a handler's answer to an HTTP client, chunk by chunk with backpressure, as API Gateway
 * does in transfer mode STREAM: the head goes out at once; a handler failing after it leaves the
 * body cut (the connection is destroyed, so the chunked transfer never completes); a client that
 * goes away ends the handler's stream.
 */
export function streamToHttp(
  handler: StreamedHttpHandler,
  event: APIGatewayProxyEvent,
  context: Context,
  response: ServerResponse,
): Promise<StreamedOutcome> {
  let clientGone = false;
  return invokeStreamed(
    handler,
    event,
    context,
    {
      head: ({ statusCode, headers }) => {
        response.writeHead(statusCode, headers as Record<string, string>);
        response.flushHeaders();
      },
      body: (chunk, done) => (response.write(chunk) ? done() : response.once('drain', done)),
      end: (done) => response.end(done),
    },
    (stream) =>
      response.once('close', () => {
        clientGone = !response.writableFinished;
        stream.destroy();
      }),
  ).then((outcome) => {
    if (outcome.headSent && outcome.aborted !== undefined) response.destroy();
    return !outcome.headSent && clientGone ? { headSent: false, clientGone: true } : outcome;
  });
}

export interface CollectedAnswer extends ResponseHead {
  body: Buffer;
  /** Set when the handler failed after the head: `body` is what the client got before the cut. */
  aborted?: unknown;
}

/** A streamed handler's whole answer in memory, as a client would have received it (tests, benchmarks). */
export async function collectStreamed(
  handler: StreamedHttpHandler,
  event: APIGatewayProxyEvent,
  context: Context,
): Promise<CollectedAnswer> {
  let head: ResponseHead = { statusCode: 0 };
  const chunks: Buffer[] = [];
  const outcome = await invokeStreamed(handler, event, context, {
    head: (received) => {
      head = received;
    },
    body: (chunk, done) => {
      chunks.push(chunk);
      done();
    },
    end: (done) => done(),
  });
  if (!outcome.headSent) throw outcome.failure;
  return { ...head, body: Buffer.concat(chunks), ...(outcome.aborted === undefined ? {} : { aborted: outcome.aborted }) };
}

/** Any HTTP handler's answer in memory: a streamed one read whole, as a client would receive it (tests, benchmarks). */
export async function invokeWhole(
  handler: HttpHandler | StreamedHttpHandler,
  event: APIGatewayProxyEvent,
  context: Context,
): Promise<ResponseHead & { body: string }> {
  if (!isStreamedHandler(handler)) return handler(event, context);
  const answer = await collectStreamed(handler, event, context);
  return { statusCode: answer.statusCode, headers: answer.headers, body: answer.body.toString('utf8') };
}
