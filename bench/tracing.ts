import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { bundle, type LambdaBundle } from './bundle.ts';
import { DEPLOYED_NODE_FLAGS } from './cold-start.ts';
import type { BenchStore } from './fixtures.ts';
import { integer, ms, table } from './markdown.ts';
import { bundleFigures, interleavedRuns, runBundle, type BundleFigures, type RunOptions } from './run-bundle.ts';

/** Fresh processes per variant, interleaved; odd, so that the median is one run. */
const RUNS = 15;
/** Invocations per process: the first is the cold one, the others warm. */
const INVOCATIONS = 101;
const TRACED_HANDLER = 'bench/cold-start/traced-handler.ts';

/**
 * What a Lambda execution environment gives a traced function: Tracer turns itself on only where
 * AWS_EXECUTION_ENV is set, and the X-Ray SDK takes the invocation's segment from _X_AMZN_TRACE_ID
 * (sampled) where LAMBDA_TASK_ROOT is set. The daemon's address is the SDK's default, where nothing
 * listens here (nor on Lambda without active tracing): the UDP sends go nowhere, as they would.
 */
const LAMBDA_TRACING_ENV = {
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
  AWS_LAMBDA_FUNCTION_NAME: 'bench-traced',
  LAMBDA_TASK_ROOT: '/var/task',
  _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1',
};

type Figures = BundleFigures & { bytes: number };

/** Datagrams a traced run sends to a daemon that listens: proof that the traced rows traced, and what each invocation sends. */
async function datagramsPerInvocation(traced: string, options: RunOptions): Promise<number> {
  const daemon = createSocket('udp4');
  let datagrams = 0;
  daemon.on('message', () => (datagrams += 1));
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  try {
    const address = `127.0.0.1:${(daemon.address() as AddressInfo).port}`;
    await runBundle(traced, {}, { ...options, env: { ...options.env, AWS_XRAY_DAEMON_ADDRESS: address } });
    // The last sends may still be on their way through the loopback.
    await new Promise((resolve) => setTimeout(resolve, 200));
    return datagrams / INVOCATIONS;
  } finally {
    daemon.close();
  }
}

/**
 * Section 1's tracing rows: the baseline (one GetItem) beside the same with Powertools Tracer
 * capturing its DynamoDB client, both in a Lambda-like environment without an X-Ray daemon.
 */
export async function measureTracing(baseline: LambdaBundle, bundleDir: string, store: BenchStore): Promise<string> {
  const traced = await bundle(TRACED_HANDLER, bundleDir, 'baseline-traced');
  const options = { env: { ...store.functionEnv, ...LAMBDA_TRACING_ENV }, nodeFlags: DEPLOYED_NODE_FLAGS, invocations: INVOCATIONS };
  const variants = [
    { name: 'baseline', file: baseline.file, bytes: baseline.bytes, event: () => ({}), options },
    { name: 'baseline + Powertools Tracer (DynamoDB client captured)', file: traced.file, bytes: traced.bytes, event: () => ({}), options },
  ];
  const runs = await interleavedRuns(RUNS, variants);
  const figuresOf = ({ name, bytes }: (typeof variants)[number]): Figures => ({ ...bundleFigures(runs.get(name)!), bytes });
  const [untraced, withTracer] = [figuresOf(variants[0]!), figuresOf(variants[1]!)];
  const sent = await datagramsPerInvocation(traced.file, options);
  const added = (of: (figures: Figures) => number) => ms(of(withTracer) - of(untraced));
  return [
    `**Tracing DynamoDB calls.** The baseline above (one GetItem) beside the same with Powertools for AWS Lambda's Tracer capturing its DynamoDB client (\`tracer.captureAWSv3Client\`, ${TRACED_HANDLER}): each call an X-Ray subsegment, sent over UDP to the daemon when it ends. Both run in a Lambda-like environment (AWS_EXECUTION_ENV, LAMBDA_TASK_ROOT and a sampled _X_AMZN_TRACE_ID, without which Tracer turns itself off) with no X-Ray daemon listening, as here and on Lambda without active tracing: the sends go nowhere and the handler does not wait for them. ${RUNS} fresh processes each, interleaved, ${INVOCATIONS} invocations per process: *load + first* is the cold start as above, *warm* the median invocation after the first (median of the processes' medians). With a daemon listening on 127.0.0.1, the traced bundle sent ${sent.toFixed(2)} datagrams per invocation, so the traced rows did trace.`,
    '',
    table(
      ['Bundle', 'Bytes', 'Load', 'Load + first', 'Warm invocation', 'Warm CPU', 'Answers'],
      [untraced, withTracer].map((figures, index) => [
        variants[index]!.name,
        integer(figures.bytes),
        ms(figures.loadMs),
        ms(figures.loadAndFirstMs),
        ms(figures.warmMs),
        ms(figures.warmCpuMs),
        figures.outcomes,
      ]),
    ),
    '',
    `Tracer adds ${added((figures) => figures.loadAndFirstMs)} to the cold start (the load alone ${added((figures) => figures.loadMs)}, for ${integer(withTracer.bytes - untraced.bytes)} more bytes: the X-Ray SDK and its context propagation; medians of different figures, so the two need not add up) and ${added((figures) => figures.warmMs)} to a warm one-call invocation (${added((figures) => figures.warmCpuMs)} of CPU); a handler making n calls pays the warm figure about n times. What the service decided from these figures: docs/decisions.md, "Tracing DynamoDB calls".`,
  ].join('\n');
}
