import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A webhook receiver on 127.0.0.1, as a customer would run one: it verifies with the standardwebhooks package. */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** Whether standardwebhooks accepted the signature. */
  verified: boolean;
  receivedAt: number;
  /** The status it answered. */
  status: number;
}

export interface WebhookReceiver {
  url: string;
  /** Every request it got, in order, accepted or not. */
  received: ReceivedWebhook[];
  /** The ids it accepted (answered 2xx and verified), once each. */
  acceptedIds(): Set<string>;
  /** The status for the next request (200 unless set). */
  answerWith(status: (request: { body: string }) => number): void;
  /** Stops listening: connections are refused until start(). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Resolves once `predicate` holds for what was received, checked as requests come in. */
  until(predicate: (received: ReceivedWebhook[]) => boolean): Promise<void>;
}

export async function startWebhookReceiver(secret: string, port = 0): Promise<WebhookReceiver> {
  const verifier = new Webhook(secret);
  const received: ReceivedWebhook[] = [];
  let status: (request: { body: string }) => number = () => 200;
  const waiters: Array<{ predicate: (received: ReceivedWebhook[]) => boolean; resolve(): void }> = [];
  let server: Server;
  let boundPort = port;

  const listen = async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        let verified = true;
        try {
          verifier.verify(body, request.headers as Record<string, string>);
        } catch {
          verified = false;
        }
        const answer = verified ? status({ body }) : 400;
        received.push({ headers: request.headers, body, verified, receivedAt: Date.now(), status: answer });
        response.writeHead(answer).end();
        for (const waiter of [...waiters]) {
          if (waiter.predicate(received)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve();
          }
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(boundPort, '127.0.0.1', resolve));
    boundPort = (server.address() as AddressInfo).port;
  };
  await listen();

  return {
    url: `http://127.0.0.1:${boundPort}/hooks`,
    received,
    acceptedIds: () => new Set(received.filter((one) => one.verified && one.status < 300).map((one) => String(one.headers['webhook-id']))),
    answerWith: (next) => {
      status = next;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    start: listen,
    until: (predicate) => (predicate(received) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ predicate, resolve }))),
  };
}

/** A receiver that hangs: it takes each request and answers none, until told to answer. */
export interface HangingReceiver {
  url: string;
  /** How many requests it holds unanswered. */
  held(): number;
  /** Answers 204 to every request held and every later one. */
  answerAll(): void;
  stop(): Promise<void>;
}

export async function startHangingReceiver(): Promise<HangingReceiver> {
  const held = new Set<ServerResponse>();
  let answering = false;
  const server = createServer((request, response) => {
    request.resume();
    if (answering) {
      response.writeHead(204).end();
      return;
    }
    held.add(response);
    response.once('close', () => held.delete(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    held: () => held.size,
    answerAll() {
      answering = true;
      for (const response of held) response.writeHead(204).end();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A Standard Webhooks secret, as an operator would generate one. */
export function webhookSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
}
