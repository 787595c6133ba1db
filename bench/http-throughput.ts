import autocannon, { type Result } from 'autocannon';
import { fileURLToPath } from 'node:url';
import type { HttpServers } from './http-servers.ts';
import { startIpcChild } from './ipc-child.ts';
import { fixed, integer, ratio, table } from './markdown.ts';

const SERVERS = fileURLToPath(new URL('./http-servers.ts', import.meta.url));
const PETS = 100;
const CONNECTIONS = 10;
const WARM_UP_SECONDS = 2;
const MEASURED_SECONDS = 8;

const REQUESTS = [
  { name: 'GET /inventory', method: 'GET', path: '/inventory' },
  { name: 'PATCH /inventory/1', method: 'PATCH', path: '/inventory/1', body: JSON.stringify({ quantity: 7 }) },
] as const;

const SERVER_NAMES = {
  localApp: 'local app (`npm start`)',
  bare: 'bare node:http, same call',
  bareWithSameCalls: 'bare node:http, same calls as the service',
} as const;

/** autocannon reports latency in whole milliseconds. */
const wholeMs = (value: number) => `${integer(value)} ms`;

/** Starts the servers' process and waits for their addresses. */
async function startServers(): Promise<{ servers: HttpServers; stop: () => Promise<void> }> {
  // The local server logs every request to stdout, as `npm start` does; that stays part of its cost.
  const { message: servers, stop } = await startIpcChild<HttpServers>(SERVERS, [String(PETS)]);
  return { servers, stop };
}

/** Section 3: autocannon against the local server and two node:http baselines on the same store. */
export async function measureHttpThroughput(): Promise<string> {
  const { servers, stop } = await startServers();
  const results: { request: (typeof REQUESTS)[number]; server: keyof typeof SERVER_NAMES; result: Result }[] = [];
  try {
    for (const request of REQUESTS) {
      for (const server of Object.keys(SERVER_NAMES) as (keyof typeof SERVER_NAMES)[]) {
        const options = {
          url: `${servers[server]}${request.path}`,
          method: request.method,
          connections: CONNECTIONS,
          headers: { Authorization: `Bearer ${servers.apiKey}`, ...('body' in request ? { 'Content-Type': 'application/json' } : {}) },
          ...('body' in request ? { body: request.body } : {}),
        };
        await autocannon({ ...options, duration: WARM_UP_SECONDS });
        results.push({ request, server, result: await autocannon({ ...options, duration: MEASURED_SECONDS }) });
      }
    }
  } finally {
    await stop();
  }

  const bare = (name: string) => results.find((entry) => entry.request.name === name && entry.server === 'bare')!.result;
  const localApp = (name: string) => results.find((entry) => entry.request.name === name && entry.server === 'localApp')!.result;
  const sameCalls = (name: string) => results.find((entry) => entry.request.name === name && entry.server === 'bareWithSameCalls')!.result;
  const rows = results.map(({ request, server, result }) => {
    const baseline = bare(request.name);
    return [
      request.name,
      SERVER_NAMES[server],
      integer(result.requests.average),
      wholeMs(result.latency.p50),
      wholeMs(result.latency.p99),
      ratio(result.requests.average / baseline.requests.average),
      ratio(result.latency.p50 / Math.max(baseline.latency.p50, 1)),
      `${integer(result.non2xx)} / ${integer(result.errors + result.timeouts)}`,
    ];
  });

  return [
    '## 3. Local HTTP throughput',
    '',
    `autocannon (${CONNECTIONS} connections, ${WARM_UP_SECONDS} s warm-up then ${MEASURED_SECONDS} s measured, in the bench process) against three servers sharing one child process and one in-memory DynamoDB Local seeded with ${PETS} pets: the local app as \`npm start\` runs it (\`startLocalApp\`: the authorizer on every request, the Middy handlers, request logs to stdout), a bare node:http server making only the operation's DynamoDB call (the baseline), and a bare node:http server making the same calls as the service (key lookup, the usage counter's one write, the operation) without any framework. Requests carry an enterprise key with limits no run reaches. Latencies are autocannon's, in whole milliseconds.`,
    '',
    table(['Request', 'Server', 'Requests/s', 'p50', 'p99', '× baseline (req/s)', '× baseline (p50)', 'non-2xx / errors'], rows),
    '',
    `The local app serves ${REQUESTS.map((request) => `${request.name} at ${ratio(localApp(request.name).requests.average / bare(request.name).requests.average)}`).join(' and ')} the baseline's rate. Against the bare server that makes the same DynamoDB calls it reaches ${REQUESTS.map((request) => `${fixed((100 * localApp(request.name).requests.average) / sameCalls(request.name).requests.average, 0)}%`).join(' and ')} of the rate: the calls around the operation (the key lookup and the usage counter) make most of the gap, the event building, Middy stack and request logging the rest. Locally every call is an HTTP request to DynamoDB Local on the same machine (its JVM shares the two cores with the servers and their SDK clients); on AWS the authorizer and each operation run in functions of their own, in parallel across instances, and DynamoDB runs elsewhere, so these ratios are a local worst case, not a Lambda figure.`,
  ].join('\n');
}
