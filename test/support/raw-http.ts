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

/** The first complete answer in what was received, or undefined while it is incomplete. */
function parseAnswer(received: Buffer, startedAt: number, interim: number[] = []): RawAnswer | undefined {
  const headEnd = received.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine, ...lines] = received.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  // Interim answers (100 Continue) come before the final one.
  if (status >= 100 && status < 200) return parseAnswer(received.subarray(headEnd + 4), startedAt, [...interim, status]);
  const length = Number(headers.get('content-length') ?? Number.NaN);
  const body = received.subarray(headEnd + 4);
  if (Number.isInteger(length) && body.length < length) return undefined;
  return { status, headers, body: body.subarray(0, Number.isInteger(length) ? length : undefined).toString('utf8'), interim, elapsedMs: performance.now() - startedAt };
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
      const answer = parseAnswer(received, startedAt);
      if (answer) finish(answer);
    });
    // A server that answers early may reset a connection the client is still writing to; what arrived before counts.
    socket.on('error', () => undefined);
    socket.on('close', () => finish(parseAnswer(received, startedAt) ?? 'closed'));
  });
}
