import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CALL_BOUNDS, createDocumentClient } from '../../../functions/adapters/dynamodb/document-client.ts';
import { createIdempotentWriteRepository } from '../../../functions/adapters/dynamodb/idempotent-write-repository.ts';
import { createInventoryRepository } from '../../../functions/adapters/dynamodb/inventory-repository.ts';
import { createUsageCounterRepository } from '../../../functions/adapters/dynamodb/usage-counter-repository.ts';
import { IdempotentWriter } from '../../../functions/domain/idempotent-writes.ts';
import { PlanLimiter } from '../../../functions/domain/plan-limiter.ts';
import { updateInventory } from '../../../functions/operations/update-inventory.ts';
import { lambdaContext, patchEvent } from '../../support/events.ts';

/** A store that accepts connections and never answers: the SDK's own timeouts must end the wait. */
async function silentStore(): Promise<{ endpoint: string; requests: () => number; close(): Promise<void> }> {
  let requests = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer(() => {
    requests += 1;
  });
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

describe('a store that hangs', () => {
  it('is given up on after the bounded retries, and the client gets 503 with Retry-After', async () => {
    const store = await silentStore();
    close = store.close;
    const client = createDocumentClient({ endpoint: store.endpoint, profile: 'lambda' });
    const countingClient = createDocumentClient({ endpoint: store.endpoint, profile: 'lambda', bounds: CALL_BOUNDS.counting });
    const handler = updateInventory.handler({
      inventory: createInventoryRepository(client, 'inventory'),
      idempotentWriter: new IdempotentWriter(
        createIdempotentWriteRepository(client, { inventoryTable: 'inventory', idempotencyRecordsTable: 'records' }),
      ),
      limiter: new PlanLimiter(createUsageCounterRepository(countingClient, 'counters')),
    });

    const response = await handler(patchEvent('1', '{"quantity": 1}'), lambdaContext);

    // Counting (one write, the ban folded into it) fails open after two attempts; the update fails after three attempts.
    expect(response.statusCode).toBe(503);
    expect(response.headers).toMatchObject({ 'Retry-After': '1', 'X-RateLimit-Limit': '60' });
    expect(store.requests()).toBe(2 + 3);
    client.destroy();
    countingClient.destroy();
  }, 60_000);
});
