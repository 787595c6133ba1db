// Plain JavaScript on purpose: the process that is measured does no TypeScript work.
// Loads one bundled Lambda handler as the Node.js runtime does (import, then call), invokes
// it, and prints one JSON line: load and invocation times, outcomes, sizes, peak memory.
// Usage: node invoke-bundle.mjs <bundle.mjs> <event JSON> [invocations]
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';

const [bundlePath, eventJson, invocationCount = '1'] = process.argv.slice(2);
const event = JSON.parse(eventJson);
/** The deployed timeouts (functions/routes.ts, FUNCTION_TIMEOUT_SECONDS): a streamed listing's is longer. */
const contextFor = (streamed) => ({
  awsRequestId: 'bench',
  functionName: 'bench',
  callbackWaitsForEmptyEventLoop: false,
  getRemainingTimeInMillis: () => (streamed ? 180_000 : 10_000),
});

// The runtime's response streaming, as local/lambda-streaming.ts provides it to the
// other hosts: a marked handler is called with a response stream, whose first write sends the
// prelude (status and headers as JSON, then 8 NUL bytes). Installed before the bundle loads,
// as on Lambda; the SDK may have made the global already (its invocation store).
const STREAMING_MARKER = Symbol.for('aws.lambda.runtime.handler.streaming');
const DELIMITER = Buffer.alloc(8);
globalThis.awslambda ??= {};
globalThis.awslambda.streamifyResponse = (handler) => Object.assign(handler, { [STREAMING_MARKER]: 'response' });
globalThis.awslambda.HttpResponseStream = {
  from(stream, prelude) {
    const write = stream.write.bind(stream);
    let preludeSent = false;
    stream.write = (chunk, ...rest) => {
      if (!preludeSent) {
        preludeSent = true;
        write(JSON.stringify(prelude));
        write(DELIMITER);
      }
      return write(chunk, ...rest);
    };
    return stream;
  },
};

/** A response stream that keeps only what is measured: when the first byte came, the status, the body's size. */
function measuringStream(startedAt) {
  let received = Buffer.alloc(0);
  const seen = { firstByteMs: undefined, statusCode: undefined, bodyBytes: 0, smallBody: '' };
  const stream = new Writable({
    write(chunk, _encoding, done) {
      seen.firstByteMs ??= performance.now() - startedAt;
      if (seen.statusCode === undefined) {
        received = Buffer.concat([received, chunk]);
        const at = received.indexOf(DELIMITER);
        if (at >= 0) {
          seen.statusCode = JSON.parse(received.subarray(0, at).toString()).statusCode;
          const body = received.subarray(at + DELIMITER.length);
          seen.bodyBytes += body.length;
          seen.smallBody += body.toString();
        }
      } else {
        seen.bodyBytes += chunk.length;
        if (seen.smallBody.length <= 1_024) seen.smallBody += chunk.toString();
      }
      done();
    },
  });
  return { stream, seen };
}

/** 200-style status of a proxy result, or the effect of an authorizer's policy. */
function outcomeOf(result) {
  if (result?.statusCode !== undefined) return String(result.statusCode);
  return result?.policyDocument?.Statement?.[0]?.Effect ?? 'unknown';
}

/** The process's CPU time since `since` (process.cpuUsage()), in ms: what the invocation used, whatever else runs on the machine. */
const cpuMsSince = (since) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1_000;
};

async function invoke(handler) {
  const startedAt = performance.now();
  const cpuAtStart = process.cpuUsage();
  if (handler[STREAMING_MARKER] !== 'response') {
    const result = await handler(structuredClone(event), contextFor(false));
    return {
      ms: performance.now() - startedAt,
      cpuMs: cpuMsSince(cpuAtStart),
      outcome: outcomeOf(result),
      bodyBytes: typeof result?.body === 'string' ? Buffer.byteLength(result.body) : 0,
      // Error answers are small and worth showing; inventories are not.
      smallBody: typeof result?.body === 'string' && result.body.length <= 1_024 ? result.body : undefined,
    };
  }
  const { stream, seen } = measuringStream(startedAt);
  let outcome;
  try {
    await handler(structuredClone(event), stream, contextFor(true));
    outcome = String(seen.statusCode);
  } catch (error) {
    outcome = seen.statusCode === undefined ? `failed: ${error}` : `${seen.statusCode}, cut: ${error}`;
  }
  return {
    ms: performance.now() - startedAt,
    cpuMs: cpuMsSince(cpuAtStart),
    firstByteMs: seen.firstByteMs,
    outcome,
    bodyBytes: seen.bodyBytes,
    smallBody: seen.bodyBytes <= 1_024 ? seen.smallBody : undefined,
  };
}

const importStartedAt = performance.now();
const { handler } = await import(pathToFileURL(bundlePath).href);
const loadedAt = performance.now();

const invocations = [];
for (let index = 0; index < Number(invocationCount); index += 1) invocations.push(await invoke(handler));

process.stdout.write(
  `${JSON.stringify({
    loadMs: loadedAt - importStartedAt,
    invocations,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
  })}\n`,
);
// Keep-alive sockets to the store would hold the process open; the measurement is complete.
process.exit(0);
