import { createServer, request as forward, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * DynamoDB Local behind a relay on 127.0.0.1 that can fail calls on purpose: for the faults the
 * real store cannot be made to produce on demand (it failing halfway through a listing). A
 * failed call is answered as DynamoDB answers an internal error, so the SDK retries it and then
 * gives up as it would on AWS.
 */
export type StoreFault =
  /** Every call answers. */
  | 'none'
  /** Every call fails. */
  | 'every call'
  /** Every call to the inventory table fails (the keys and the counters still answer, so requests are authorized and counted). */
  | 'inventory'
  /** A Query for a page after the first (one with ExclusiveStartKey) fails: a listing breaks after its first page. */
  | 'later pages';

export class FaultyStore {
  fault: StoreFault = 'none';

  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
    private readonly inventoryTable: string,
  ) {}

  static async start(storeEndpoint: string, inventoryTable: string): Promise<FaultyStore> {
    const store = new URL(storeEndpoint);
    let relay: FaultyStore | undefined;
    const server = createServer((incoming, outgoing) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const body = Buffer.concat(chunks);
        if (relay?.fails(incoming, body)) {
          outgoing
            .writeHead(500, { 'Content-Type': 'application/x-amz-json-1.0' })
            .end('{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"fault injected by the test"}');
          return;
        }
        const call = forward(
          { hostname: store.hostname, port: store.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
          (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(outgoing);
          },
        );
        call.on('error', () => outgoing.destroy());
        call.end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    relay = new FaultyStore(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, inventoryTable);
    return relay;
  }

  private fails(incoming: IncomingMessage, body: Buffer): boolean {
    if (this.fault === 'every call') return true;
    if (this.fault === 'inventory') return body.includes(`"TableName":${JSON.stringify(this.inventoryTable)}`);
    return (
      this.fault === 'later pages' && incoming.headers['x-amz-target'] === 'DynamoDB_20120810.Query' && body.includes('"ExclusiveStartKey"')
    );
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
