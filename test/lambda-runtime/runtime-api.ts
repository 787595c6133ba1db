import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Lambda's Runtime API for one execution environment, on 127.0.0.1: what the runtime client
 * (aws-lambda-ric) polls for invocations and posts their answers to, as AWS documents it
 * (docs.aws.amazon.com/lambda/latest/dg/runtimes-api.html, and response streaming's
 * runtimes-custom.html#runtimes-custom-response-streaming). It records every answer as it
 * arrived, streamed bytes and trailers included, so that a test sees what Lambda would see.
 */

const API = '/2018-06-01/runtime';
/** The header, and trailer, naming the error type of a failed invocation. */
export const ERROR_TYPE = 'lambda-runtime-function-error-type';
/** The trailer carrying a failed streamed invocation's error body, base64. */
export const ERROR_BODY = 'lambda-runtime-function-error-body';

/** What the runtime answered for one invocation. */
export type InvocationAnswer =
  /** A buffered answer: the handler's result, as JSON. */
  | { kind: 'response'; headers: IncomingHttpHeaders; body: Buffer }
  /**
   * A streamed answer (Lambda-Runtime-Function-Response-Mode: streaming): the bytes as sent,
   * its trailers, and whether the chunked body ended properly or was cut.
   */
  | { kind: 'stream'; headers: IncomingHttpHeaders; body: Buffer; trailers: Record<string, string | undefined>; complete: boolean }
  /** The invocation failed: the error type and the error's JSON body. */
  | { kind: 'error'; errorType: string | undefined; body: ErrorBody };

export interface ErrorBody {
  errorType: string;
  errorMessage: string;
  stackTrace?: string[];
}

interface PendingInvocation {
  requestId: string;
  event: unknown;
  deadlineMs: number;
  answered(answer: InvocationAnswer): void;
}

export class RuntimeApi {
  /** How many times the runtime asked for an invocation. */
  nextRequests = 0;
  /** The runtime's report of a failed initialisation, once it posts one. */
  readonly initError: Promise<{ errorType: string | undefined; body: ErrorBody }>;

  private readonly queue: PendingInvocation[] = [];
  private readonly inFlight = new Map<string, PendingInvocation>();
  private waiting: ServerResponse | undefined;
  private reportInitError: (report: { errorType: string | undefined; body: ErrorBody }) => void = () => undefined;

  private constructor(
    private readonly server: Server,
    /** host:port, as AWS_LAMBDA_RUNTIME_API names it. */
    readonly address: string,
  ) {
    this.initError = new Promise((resolve) => {
      this.reportInitError = resolve;
    });
  }

  static async start(): Promise<RuntimeApi> {
    let api: RuntimeApi | undefined;
    const server = createServer((request, response) => api?.route(request, response));
    // The runtime keeps one connection open for the whole life of the process.
    server.keepAliveTimeout = 0;
    server.requestTimeout = 0;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    api = new RuntimeApi(server, `127.0.0.1:${(server.address() as AddressInfo).port}`);
    return api;
  }

  /** Hands the runtime one event and resolves with its answer. */
  invoke(event: unknown, timeoutMs = 30_000): Promise<InvocationAnswer & { requestId: string }> {
    return new Promise((resolve) => {
      const requestId = randomUUID();
      this.queue.push({ requestId, event, deadlineMs: Date.now() + timeoutMs, answered: (answer) => resolve({ ...answer, requestId }) });
      this.dispatch();
    });
  }

  close(): Promise<void> {
    this.waiting?.destroy();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private dispatch(): void {
    const waiting = this.waiting;
    const next = this.queue[0];
    if (!waiting || !next) return;
    this.queue.shift();
    this.waiting = undefined;
    this.inFlight.set(next.requestId, next);
    const body = JSON.stringify(next.event);
    waiting.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'Lambda-Runtime-Aws-Request-Id': next.requestId,
      'Lambda-Runtime-Deadline-Ms': String(next.deadlineMs),
      'Lambda-Runtime-Invoked-Function-Arn': 'arn:aws:lambda:us-east-1:000000000000:function:under-test',
      'Lambda-Runtime-Trace-Id': `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomUUID().replaceAll('-', '').slice(0, 24)};Sampled=0`,
    });
    waiting.end(body);
  }

  private route(request: IncomingMessage, response: ServerResponse): void {
    const url = request.url ?? '';
    if (request.method === 'GET' && url === `${API}/invocation/next`) {
      this.nextRequests += 1;
      this.waiting = response;
      this.dispatch();
      return;
    }
    if (request.method === 'POST' && url === `${API}/init/error`) {
      void readAll(request).then(({ body }) => {
        this.reportInitError({ errorType: header(request.headers[ERROR_TYPE]), body: JSON.parse(body.toString('utf8')) as ErrorBody });
        accepted(response);
      });
      return;
    }
    const answer = /^\/2018-06-01\/runtime\/invocation\/([^/]+)\/(response|error)$/.exec(url);
    const invocation = answer ? this.inFlight.get(decodeURIComponent(answer[1]!)) : undefined;
    if (request.method !== 'POST' || !answer || !invocation) {
      response.writeHead(404).end();
      return;
    }
    this.inFlight.delete(invocation.requestId);
    void readAll(request).then(({ body, complete }) => {
      if (answer[2] === 'error') {
        invocation.answered({
          kind: 'error',
          errorType: header(request.headers[ERROR_TYPE]),
          body: JSON.parse(body.toString('utf8')) as ErrorBody,
        });
      } else if (request.headers['lambda-runtime-function-response-mode'] === 'streaming') {
        const trailers = Object.fromEntries(Object.entries(request.trailers).map(([name, value]) => [name.toLowerCase(), value]));
        invocation.answered({ kind: 'stream', headers: request.headers, body, trailers, complete });
      } else {
        invocation.answered({ kind: 'response', headers: request.headers, body });
      }
      if (complete) accepted(response);
    });
  }
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function accepted(response: ServerResponse): void {
  response.writeHead(202, { 'Content-Type': 'application/json' }).end('{"status":"OK"}');
}

/** A request's body, and whether it ended as HTTP says (a chunked body cut short did not). */
function readAll(request: IncomingMessage): Promise<{ body: Buffer; complete: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('end', () => resolve({ body: Buffer.concat(chunks), complete: true }));
    request.once('close', () => resolve({ body: Buffer.concat(chunks), complete: request.complete }));
  });
}
