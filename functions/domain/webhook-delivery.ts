/**
 * How a webhook is delivered, wherever it is sent from (npm start's outbox, the delivery function
 * on AWS): at least once; an attempt fails on any answer but 2xx, on a refused connection and
 * after attemptTimeoutMs; retried with backoff from firstRetryDelayMs, doubling, at most
 * maxRetryDelayMs apart, for retryForMs after the change was queued; then dead-lettered.
 */
export interface WebhookRetryPolicy {
  firstRetryDelayMs: number;
  maxRetryDelayMs: number;
  retryForMs: number;
  attemptTimeoutMs: number;
}

/**
 * The cap is 2 minutes, not 1, for SQS on AWS: it moves a message to the dead letters itself after
 * 1,000 receives, its most, and 24 hours at a 60 s cap are about 1,440 attempts; at 120 s a
 * delivery has at most about 780 within its 24 hours, even counting the receives of the messages
 * queued before it in its group (docs/decisions.md, "Webhook retries: one schedule").
 */
export const WEBHOOK_RETRY_POLICY: WebhookRetryPolicy = {
  firstRetryDelayMs: 1_000,
  maxRetryDelayMs: 120_000,
  retryForMs: 24 * 60 * 60 * 1_000,
  attemptTimeoutMs: 10_000,
};

/** The wait after the given number of failed attempts (1 after the first). */
export function retryDelayMs(policy: WebhookRetryPolicy, failedAttempts: number): number {
  return Math.min(policy.firstRetryDelayMs * 2 ** Math.min(failedAttempts - 1, 30), policy.maxRetryDelayMs);
}

export type AfterFailure = { retryAtMs: number } | { deadLetter: true };

/** What follows a failed attempt: another at retryAtMs, or the dead letters when that would fall past retryForMs. */
export function afterFailedAttempt(policy: WebhookRetryPolicy, failedAttempts: number, queuedAtMs: number, nowMs: number): AfterFailure {
  const retryAtMs = nowMs + retryDelayMs(policy, failedAttempts);
  return retryAtMs - queuedAtMs > policy.retryForMs ? { deadLetter: true } : { retryAtMs };
}
