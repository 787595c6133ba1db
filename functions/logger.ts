/**
 * Structured JSON logs, one object per line, as CloudWatch Logs Insights reads them. Lines go
 * straight to stdout/stderr: with Lambda's JSON log format, console.log would wrap each line
 * in a `message` string, and CloudWatch would no longer see the metric (EMF) lines.
 * Callers pass facts, never secrets: API keys and Authorization headers are not logged.
 */
type Level = 'info' | 'warn' | 'error';

export const METRIC_NAMESPACE = 'PetStoreInventory';

/** Metrics the HTTP functions emit when they serve in a degraded way; each has an alarm. */
export const SERVICE_METRICS = {
  storeUnavailable: 'StoreUnavailable',
  usageCountingUnavailable: 'UsageCountingUnavailable',
  /** A streamed answer cut after its first byte (a store failure or the deadline mid-stream): only streamed routes emit it. */
  streamAborted: 'StreamAborted',
} as const;

function write(level: Level, message: string, fields: Record<string, unknown>): void {
  if (process.env.LOG_LEVEL === 'silent') return;
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...fields }, (_key, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
  (level === 'info' ? process.stdout : process.stderr).write(`${line}\n`);
}

export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error) };
  const cause = error.cause instanceof Error ? { cause: { name: error.cause.name, message: error.cause.message } } : {};
  return { errorName: error.name, errorMessage: error.message, stack: error.stack, ...cause };
}

export const logger = {
  info: (message: string, fields: Record<string, unknown> = {}) => write('info', message, fields),
  warn: (message: string, fields: Record<string, unknown> = {}) => write('warn', message, fields),
  error: (message: string, fields: Record<string, unknown> = {}) => write('error', message, fields),
  /** An Embedded Metric Format line: CloudWatch turns it into a metric without an API call. */
  metric(name: string, value: number, dimensions: Record<string, string> = {}): void {
    // The function's name tells stages apart when staging and prod share an account.
    const scoped = { FunctionName: process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'local', ...dimensions };
    write('info', `metric ${name}`, {
      _aws: {
        Timestamp: Date.now(),
        CloudWatchMetrics: [{ Namespace: METRIC_NAMESPACE, Dimensions: [Object.keys(scoped)], Metrics: [{ Name: name, Unit: 'Count' }] }],
      },
      ...scoped,
      [name]: value,
    });
  },
};
