// Plain JavaScript on purpose: the process that is measured does no TypeScript work.
// Loads one bundled Lambda handler as the Node.js runtime does (import, then call), invokes
// it, and prints one JSON line: load and invocation times, outcomes, sizes, peak memory.
// Usage: node invoke-bundle.mjs <bundle.mjs> <event JSON> [invocations]
import { pathToFileURL } from 'node:url';

const [bundlePath, eventJson, invocationCount = '1'] = process.argv.slice(2);
const event = JSON.parse(eventJson);
const context = {
  awsRequestId: 'bench',
  functionName: 'bench',
  callbackWaitsForEmptyEventLoop: false,
  getRemainingTimeInMillis: () => 10_000,
};

/** 200-style status of a proxy result, or the effect of an authorizer's policy. */
function outcomeOf(result) {
  if (result?.statusCode !== undefined) return String(result.statusCode);
  return result?.policyDocument?.Statement?.[0]?.Effect ?? 'unknown';
}

// performance.now() counts from the start of this process.
const importStartedAt = performance.now();
const { handler } = await import(pathToFileURL(bundlePath).href);
const loadedAt = performance.now();
const rssAfterLoadBytes = process.memoryUsage.rss();

const invocations = [];
let firstResponseAt;
for (let index = 0; index < Number(invocationCount); index += 1) {
  const startedAt = performance.now();
  const result = await handler(structuredClone(event), context);
  const endedAt = performance.now();
  firstResponseAt ??= endedAt;
  invocations.push({
    ms: endedAt - startedAt,
    outcome: outcomeOf(result),
    bodyBytes: typeof result?.body === 'string' ? Buffer.byteLength(result.body) : 0,
    // What Lambda measures against its 6 MiB limit: the serialized result.
    resultBytes: Buffer.byteLength(JSON.stringify(result)),
    // Error answers are small and worth showing; inventories are not.
    smallBody: typeof result?.body === 'string' && result.body.length <= 1_024 ? result.body : undefined,
  });
}

process.stdout.write(
  `${JSON.stringify({
    processStartToImportMs: importStartedAt,
    loadMs: loadedAt - importStartedAt,
    processStartToFirstResponseMs: firstResponseAt,
    invocations,
    rssAfterLoadBytes,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
  })}\n`,
);
// Keep-alive sockets to the store would hold the process open; the measurement is complete.
process.exit(0);
