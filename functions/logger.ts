import { AsyncLocalStorage } from 'node:async_hooks';
import { LogFormatter, LogItem, Logger } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * Structured JSON logs, one object per line, as CloudWatch Logs Insights reads them, written by
 * the Powertools for AWS Lambda Logger: Lambda's level names, a `timestamp`, and the keys of the
 * request being served (its request id, its X-Ray trace) appended to every line written while it
 * is served, wherever in the code the line comes from. Metric lines are Powertools Metrics' EMF.
 *
 * Powertools writes through Console instances of its own on process.stdout/stderr, never through
 * the global console, whose Lambda wrapping would turn a metric (EMF) line into a string
 * CloudWatch no longer reads as a metric (so POWERTOOLS_DEV, which switches it to the global
 * console, stays unset). Callers pass facts, never secrets: API keys and Authorization headers
 * are not logged.
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

/**
 * The request's keys, per asynchronous context rather than in Powertools' appendKeys: `npm start`
 * serves many requests at once in one process, and Powertools scopes its keys to an invocation only
 * on Lambda's managed instances.
 */
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

/** Powertools drops a top-level field whose value is null or ''; the service writes every field as its caller gave it. */
class VerbatimLogItem extends LogItem {
  override prepareForPrint(): void {}
}

/**
 * The service's keys only: level, message, timestamp (ISO, UTC whatever TZ says), then the request's
 * ids and the caller's fields, none of the keys Powertools' own formatter adds (service, cold_start,
 * function_*, sampling_rate, xray_trace_id: the trace is the request's xrayTraceId).
 */
class ServiceLogFormatter extends LogFormatter {
  override formatAttributes(attributes: UnformattedAttributes, fields: LogAttributes): LogItem {
    return new VerbatimLogItem({
      attributes: { level: attributes.logLevel, message: attributes.message, timestamp: attributes.timestamp.toISOString(), ...fields },
    });
  }
}

/**
 * Handed every line that passes LOG_LEVEL, which this module reads per line (Powertools reads it once,
 * at construction, and knows neither FATAL nor lowercase names).
 */
const lineWriter = new Logger({ logLevel: 'TRACE', logFormatter: new ServiceLogFormatter() });

/**
 * One line per metric, published at once. Powertools' default `service` dimension is cleared: a
 * metric's dimensions are its identity, and the alarms and the dashboard read FunctionName alone.
 * Its warnings (a dimension without a value) are JSON lines of the same Logger.
 */
const metricWriter = new Metrics({ namespace: METRIC_NAMESPACE, logger: lineWriter });
metricWriter.clearDefaultDimensions();

function thresholdIndex(): number {
  const setting = (process.env[LOG_LEVEL_VARIABLE] ?? 'INFO').toUpperCase();
  if (setting === 'SILENT') return LEVELS.length;
  const index = LEVELS.indexOf(setting as Level);
  return index === -1 ? LEVELS.indexOf('INFO') : index;
}

/** Powertools' method for each level the service writes: INFO to stdout, WARN and ERROR to stderr. */
const WRITE_AT = { INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

function write(level: keyof typeof WRITE_AT, message: string, fields: Record<string, unknown>): void {
  if (LEVELS.indexOf(level) < thresholdIndex()) return;
  lineWriter[WRITE_AT[level]](message, { ...requestKeys.getStore(), ...fields });
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
    for (const [dimension, dimensionValue] of Object.entries({
      FunctionName: process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'local',
      ...dimensions,
    }))
      metricWriter.addDimension(dimension, dimensionValue);
    // Metadata: on the line for Logs Insights, not dimensions, which would make each request a metric of its own.
    for (const [key, id] of Object.entries(requestKeys.getStore() ?? {})) if (id !== undefined) metricWriter.addMetadata(key, id);
    // Added and published in one synchronous step, so that concurrent requests' lines never mix.
    metricWriter.addMetric(name, MetricUnit.Count, value).publishStoredMetrics();
  },
};
