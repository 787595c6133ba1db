import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVICE_METRICS } from '../functions/logger.ts';

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
  /** What Lambda counts against its limit: the serialized result (6 MiB), or a stream's prelude and body (200 MB). */
  resultBytes: number;
  /** The body, when it is at most 1 KiB (an error, not an inventory). */
  smallBody?: string;
}

export interface BundleRun {
  /** Node's own start-up, before our code: the same for every bundle. */
  processStartToImportMs: number;
  /** import() of the bundle: module evaluation, including the dependencies' construction. */
  loadMs: number;
  processStartToFirstResponseMs: number;
  invocations: BundleInvocation[];
  rssAfterLoadBytes: number;
  peakRssBytes: number;
}

/**
 * Runs a bundle in a fresh Node process (this one's binary: Node 24 under `npm run bench`),
 * with only the given environment, the way Lambda starts a function. Asynchronous on
 * purpose: the store the function calls lives in this process and must keep answering.
 */
export function runBundle(
  file: string,
  event: unknown,
  options: { env: Record<string, string>; nodeFlags?: string[]; invocations?: number },
): Promise<BundleRun> {
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
      if (code !== 0 || !report.startsWith('{"processStartToImportMs"'))
        reject(new Error(`${file} exited with ${code}: ${stderr.slice(-2_000)}`));
      else if (STORE_FAILURE_METRIC.test(stdout))
        reject(new Error(`${file} could not reach the store, so it measured a degraded request: ${stdout.slice(0, 2_000)}`));
      else resolve(JSON.parse(report) as BundleRun);
    });
  });
}
