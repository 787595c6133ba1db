import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVICE_METRICS } from '../functions/logger.ts';
import { median } from './stats.ts';

const INVOKER = fileURLToPath(new URL('./cold-start/invoke-bundle.mjs', import.meta.url));
/** The service's own signal (a metric line) that a store call failed and the request was served without it. */
const STORE_FAILURE_METRIC = new RegExp(`"(${Object.values(SERVICE_METRICS).join('|')})":1`);

export interface BundleInvocation {
  ms: number;
  /** The process's CPU time during the invocation (user and system). */
  cpuMs: number;
  /** A streamed handler's first write (the prelude: status and headers), from the invocation's start. */
  firstByteMs?: number;
  /** The status code (of a proxy result or a streamed prelude), or the authorizer policy's effect. */
  outcome: string;
  bodyBytes: number;
  /** The body, when it is at most 1 KiB (an error, not an inventory). */
  smallBody?: string;
}

export interface BundleRun {
  /** import() of the bundle: module evaluation, including the dependencies' construction. */
  loadMs: number;
  invocations: BundleInvocation[];
  peakRssBytes: number;
}

/**
 * Runs a bundle in a fresh Node process (this one's binary: Node 24 under `npm run bench`),
 * with only the given environment, the way Lambda starts a function. Asynchronous on
 * purpose: the store the function calls lives in this process and must keep answering.
 */
export interface RunOptions {
  env: Record<string, string>;
  nodeFlags?: readonly string[];
  invocations?: number;
}

export function runBundle(file: string, event: unknown, options: RunOptions): Promise<BundleRun> {
  const args = [...(options.nodeFlags ?? []), INVOKER, file, JSON.stringify(event), String(options.invocations ?? 1)];
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      // The functions log to stdout as on Lambda; the measurement is the last line.
      const report = stdout.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !report.startsWith('{"loadMs"')) reject(new Error(`${file} exited with ${code}: ${stderr.slice(-2_000)}`));
      else if (STORE_FAILURE_METRIC.test(stdout))
        reject(new Error(`${file} could not reach the store, so it measured a degraded request: ${stdout.slice(0, 2_000)}`));
      else resolve(JSON.parse(report) as BundleRun);
    });
  });
}

/**
 * `rounds` fresh processes of each variant, interleaved round by round, so that a slow moment of the
 * machine touches every variant alike; `event` is made anew for each run (an adjustment's
 * Idempotency-Key must be new for it to apply, not replay).
 */
export async function interleavedRuns(
  rounds: number,
  variants: readonly { name: string; file: string; event: () => unknown | Promise<unknown>; options: RunOptions }[],
): Promise<Map<string, BundleRun[]>> {
  const runs = new Map(variants.map((variant) => [variant.name, [] as BundleRun[]]));
  for (let round = 0; round < rounds; round += 1)
    for (const variant of variants) runs.get(variant.name)!.push(await runBundle(variant.file, await variant.event(), variant.options));
  return runs;
}

/** The medians of a bundle's runs: its cold start (load and first invocation) and, where a run invoked more than once, its warm invocations. */
export interface BundleFigures {
  loadMs: number;
  firstInvocationMs: number;
  loadAndFirstMs: number;
  /** The median over the runs of each run's median invocation after the first; NaN for runs of one invocation. */
  warmMs: number;
  warmCpuMs: number;
  /** Every outcome the invocations had, in order of appearance. */
  outcomes: string;
}

export function bundleFigures(runs: readonly BundleRun[]): BundleFigures {
  const warm = (of: (invocation: BundleInvocation) => number) =>
    runs[0]!.invocations.length > 1 ? median(runs.map((run) => median(run.invocations.slice(1).map(of)))) : Number.NaN;
  return {
    loadMs: median(runs.map((run) => run.loadMs)),
    firstInvocationMs: median(runs.map((run) => run.invocations[0]!.ms)),
    loadAndFirstMs: median(runs.map((run) => run.loadMs + run.invocations[0]!.ms)),
    warmMs: warm((invocation) => invocation.ms),
    warmCpuMs: warm((invocation) => invocation.cpuMs),
    outcomes: [...new Set(runs.flatMap((run) => run.invocations.map((invocation) => invocation.outcome)))].join(', '),
  };
}
