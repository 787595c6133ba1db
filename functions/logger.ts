import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Structured JSON logs, one object per line, as CloudWatch Logs Insights reads them, after the
 * conventions of the Powertools for AWS Lambda Logger: Lambda's level names, a `timestamp`, and
 * the keys of the request being served (its request id, its X-Ray trace) appended to every line
 * written while it is served, wherever in the code the line comes from.
 *
 * Lines go straight to stdout/stderr, never through console.log, whose Lambda wrapping would
 * turn a metric (EMF) line into a string CloudWatch no longer reads as a metric.
 * Callers pass facts, never secrets: API keys and Authorization headers are not logged.
 */

/** Lambda's application log levels, least severe first. */
const LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'] as const;
type Level = (typeof LEVELS)[number];

/**
 * The least severe level written, from LOG_LEVEL (default INFO); `silent` writes no log line.
 * Read per line so that tests and a changed setting take effect at once; metric lines ignore it.
 */
export const LOG_LEVEL_VARIABLE = 'LOG_LEVEL';

/** Set to `true` only where nobody reads stdout for metrics (the test suite); never on Lambda. */
export const METRICS_DISABLED_VARIABLE = 'METRICS_DISABLED';

export const METRIC_NAMESPACE = 'PetStoreInventory';

/** Metrics the HTTP functions emit when they serve in a degraded way; each has an alarm. */
export const SERVICE_METRICS = {
  storeUnavailable: 'StoreUnavailable',
  /** A write that met other transactions on its items until its request's time or rounds ran out: it wrote nothing, and answered 503. */
  writeContended: 'WriteContended',
  usageCountingUnavailable: 'UsageCountingUnavailable',
  /** A streamed answer cut after its first byte (a store failure or the deadline mid-stream): only streamed routes emit it. */
  streamAborted: 'StreamAborted',
} as const;

/** Emitted once by each execution environment, on its first request (Powertools' ColdStart). */
export const COLD_START_METRIC = 'ColdStart';

/** What every line of one request carries: the ids that find it in the access log, in X-Ray and in the client's report. */
export interface RequestLogKeys {
  /** API Gateway's request id (requestContext.requestId), the X-Request-Id of the answer. */
  requestId?: string;
  /** The Root of the request's X-Ray trace. */
  xrayTraceId?: string;
}

const requestKeys = new AsyncLocalStorage<RequestLogKeys>();

/** Runs `serve` with `keys` appended to every log and metric line written until it settles. */
export function withRequestLogKeys<T>(keys: RequestLogKeys, serve: () => T): T {
  return requestKeys.run(keys, serve);
}

/** The Root of Lambda's per-invocation trace header (`Root=1-…;Parent=…;Sampled=1`), as Powertools reads it. */
export function xrayTraceIdFrom(traceHeader: string | undefined): string | undefined {
  return traceHeader
    ?.split(';')
    .find((part) => part.startsWith('Root='))
    ?.slice('Root='.length);
}

function thresholdIndex(): number {
  const setting = (process.env[LOG_LEVEL_VARIABLE] ?? 'INFO').toUpperCase();
  if (setting === 'SILENT') return LEVELS.length;
  const index = LEVELS.indexOf(setting as Level);
  return index === -1 ? LEVELS.indexOf('INFO') : index;
}

function serialize(entry: Record<string, unknown>): string {
  return `${JSON.stringify(entry, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))}\n`;
}

function write(level: Level, message: string, fields: Record<string, unknown>): void {
  if (LEVELS.indexOf(level) < thresholdIndex()) return;
  const line = serialize({ level, message, timestamp: new Date().toISOString(), ...requestKeys.getStore(), ...fields });
  (LEVELS.indexOf(level) < LEVELS.indexOf('WARN') ? process.stdout : process.stderr).write(line);
}

export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error) };
  const cause = error.cause instanceof Error ? { cause: { name: error.cause.name, message: error.cause.message } } : {};
  return { errorName: error.name, errorMessage: error.message, stack: error.stack, ...cause };
}

export const logger = {
  info: (message: string, fields: Record<string, unknown> = {}) => write('INFO', message, fields),
  warn: (message: string, fields: Record<string, unknown> = {}) => write('WARN', message, fields),
  error: (message: string, fields: Record<string, unknown> = {}) => write('ERROR', message, fields),
  /**
   * An Embedded Metric Format line: CloudWatch turns it into a metric without an API call. It
   * has no `level` and ignores LOG_LEVEL, so no log setting of ours silences an alarm's input;
   * the functions' TEXT log format leaves Lambda no level to filter it by (lib/service-function.ts).
   */
  metric(name: string, value: number, dimensions: Record<string, string> = {}): void {
    if (process.env[METRICS_DISABLED_VARIABLE] === 'true') return;
    // The function's name tells stages apart when staging and prod share an account.
    const scoped = { FunctionName: process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'local', ...dimensions };
    process.stdout.write(
      serialize({
        _aws: {
          Timestamp: Date.now(),
          CloudWatchMetrics: [{ Namespace: METRIC_NAMESPACE, Dimensions: [Object.keys(scoped)], Metrics: [{ Name: name, Unit: 'Count' }] }],
        },
        ...scoped,
        [name]: value,
        ...requestKeys.getStore(),
      }),
    );
  },
};
