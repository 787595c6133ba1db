/**
 * The servers of the HTTP throughput section, in a process of their own so that autocannon (in
 * the bench process) does not share their event loop: the local app as `npm start` runs it,
 * and two node:http baselines on the same DynamoDB Local. Reports their addresses and a
 * key over IPC; stops when the bench disconnects.
 * Usage: node --import tsx bench/http-servers.ts <pets>
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceDependencies } from '../local/service-dependencies.ts';
import { authenticate, generateApiKey } from '../functions/domain/api-keys.ts';
import { limitsFor } from '../functions/domain/plans.ts';
import { KeyAdmin } from '../local/key-admin.ts';
import { startLocalApp } from '../local/local-app.ts';
import { LOCAL_TABLES } from '../local/local-store.ts';
import { bareListInventory, bareUpdateInventory } from './bare-handlers.ts';
import { benchInventory, UNTHROTTLED_LIMITS } from './fixtures.ts';

export interface HttpServers {
  /** Base addresses, each ending in /v1. */
  localApp: string;
  bare: string;
  bareWithSameCalls: string;
  apiKey: string;
}

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request.setEncoding('utf8')) body += chunk;
  return body;
}

/**
 * GET /v1/inventory and PATCH /v1/inventory/{petId}, nothing else. With `sameCalls` it also
 * makes the calls the service makes around the operation (key lookup, usage
 * counter), still without any framework: the floor for the service's whole request.
 */
function bareServer(dependencies: ServiceDependencies, sameCalls: boolean): Server {
  return createServer((request, response) => {
    const answer = async () => {
      if (sameCalls) {
        const { record } = await authenticate(dependencies.apiKeys, request.headers.authorization);
        await dependencies.limiter.admit(record.keyId, limitsFor(record.plan, record.customLimits));
      }
      if (request.method === 'GET') return bareListInventory(dependencies.client, LOCAL_TABLES.inventoryTable);
      return bareUpdateInventory(
        dependencies.client,
        LOCAL_TABLES.inventoryTable,
        request.url!.split('/').at(-1)!,
        await readBody(request),
      );
    };
    answer().then(
      ({ statusCode, body }) => response.writeHead(statusCode, { 'Content-Type': 'application/json' }).end(body),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
}

async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const app = await startLocalApp({ seed: benchInventory(Number(process.argv[2])), devApiKey: generateApiKey().key, devPlan: 'free' });
const { apiKey } = await new KeyAdmin(app.dependencies.apiKeys, app.dependencies.usageCounters).issue({
  plan: 'enterprise',
  owner: 'bench',
  customLimits: { ...UNTHROTTLED_LIMITS },
});
const baselines = [bareServer(app.dependencies, false), bareServer(app.dependencies, true)] as const;
const servers: HttpServers = {
  localApp: app.baseUrl,
  bare: await listenOnLoopback(baselines[0]),
  bareWithSameCalls: await listenOnLoopback(baselines[1]),
  apiKey,
};
process.send!(servers);
process.on('disconnect', () => {
  for (const server of baselines) server.close();
  void app.close().finally(() => process.exit(0));
});
