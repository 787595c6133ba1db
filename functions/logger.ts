/**
 * Structured JSON logs, one object per line, as CloudWatch Logs Insights reads them.
 * Callers pass facts, never secrets: API keys and Authorization headers are not logged.
 */
type Level = 'info' | 'warn' | 'error';

function write(level: Level, message: string, fields: Record<string, unknown>): void {
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...fields }, (_key, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
  if (process.env.LOG_LEVEL === 'silent') return;
  if (level === 'error' || level === 'warn') console.error(line);
  else console.log(line);
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
    write('info', `metric ${name}`, {
      _aws: {
        Timestamp: Date.now(),
        CloudWatchMetrics: [{ Namespace: 'PetStoreInventory', Dimensions: [Object.keys(dimensions)], Metrics: [{ Name: name, Unit: 'Count' }] }],
      },
      ...dimensions,
      [name]: value,
    });
  },
};
