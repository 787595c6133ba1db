import { connect, type Socket } from 'node:net';

/** One HTTP answer as it came off the wire. */
export interface RawAnswer {
  status: number;
  /** Header names in lower case; a repeated header keeps its last value. */
  headers: Map<string, string>;
  body: string;
  /** Interim answers received before it (100 Continue). */
  interim: number[];
  /** From the connection to the end of the answer. */
  elapsedMs: number;
}

/** What a request sends: bytes at once, or a function that writes them over time. */
export type RawRequest = string | Buffer | ((socket: Socket) => void);

/** The body of a chunked transfer, or undefined while its last chunk has not arrived. */
function dechunked(body: Buffer): Buffer | undefined {
  const chunks: Buffer[] = [];
  for (let at = 0; ; ) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(chunks);
    if (body.length < lineEnd + 2 + size + 2) return undefined;
    chunks.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * The first complete answer in what was received, or undefined while it is incomplete: a body
 * ends at its Content-Length, at its last chunk, or (neither given, as in HTTP/1.0) when the
 * connection closes.
 */
function parseAnswer(received: Buffer, startedAt: number, closed: boolean, interim: number[] = []): RawAnswer | undefined {
  const headEnd = received.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine, ...lines] = received.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  const headers = new Map(
    lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  // Interim answers (100 Continue) come before the final one.
  if (status >= 100 && status < 200) return parseAnswer(received.subarray(headEnd + 4), startedAt, closed, [...interim, status]);
  const length = Number(headers.get('content-length') ?? Number.NaN);
  const rest = received.subarray(headEnd + 4);
  const body =
    headers.get('transfer-encoding') === 'chunked'
      ? dechunked(rest)
      : Number.isInteger(length)
        ? rest.length < length
          ? undefined
          : rest.subarray(0, length)
        : closed
          ? rest
          : undefined;
  if (!body) return undefined;
  return { status, headers, body: body.toString('utf8'), interim, elapsedMs: performance.now() - startedAt };
}

/**
 * Sends raw bytes on a fresh TCP connection and resolves with the first answer, or with why
 * there is none: 'closed' when the server closed the connection without a complete answer,
 * 'no answer' when nothing complete came within timeoutMs.
 */
export function sendRaw(port: number, request: RawRequest, timeoutMs = 20_000): Promise<RawAnswer | 'closed' | 'no answer'> {
  return new Promise((resolve) => {
    const startedAt = performance.now();
    let received = Buffer.alloc(0);
    const socket = connect(port, '127.0.0.1');
    const timer = setTimeout(() => finish('no answer'), timeoutMs);
    function finish(outcome: RawAnswer | 'closed' | 'no answer') {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    }
    socket.on('connect', () => {
      if (typeof request === 'function') request(socket);
      else socket.write(request);
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const answer = parseAnswer(received, startedAt, false);
      if (answer) finish(answer);
    });
    // A server that answers early may reset a connection the client is still writing to; what arrived before counts.
    socket.on('error', () => undefined);
    socket.on('close', () => finish(parseAnswer(received, startedAt, true) ?? 'closed'));
  });
}
