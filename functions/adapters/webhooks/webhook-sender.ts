import type { AttemptOutcome } from '../../domain/webhook-delivery-loop.ts';
import { webhookHeaders, type WebhookMessage } from '../../domain/webhooks.ts';

/**
 * One signed POST of a webhook. Delivered on a 2xx only; a redirect is not followed (a receiver
 * that moved says so at its new address); any other answer, a refused connection or no answer
 * within timeoutMs is a failure, described in one line for the log and the dead letters.
 */
export async function sendWebhook(
  url: string,
  message: WebhookMessage,
  key: Buffer,
  timeoutMs: number,
  now = new Date(),
): Promise<AttemptOutcome> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: webhookHeaders(key, message, now),
      body: message.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Read to the end, so that the connection is free for the next delivery.
    await response.arrayBuffer().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { delivered: true, status: response.status };
    return { delivered: false, failure: `answered ${response.status}` };
  } catch (error) {
    return { delivered: false, failure: failureOf(error, timeoutMs) };
  }
}

function failureOf(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `connection failed (${cause.code})`;
  if (cause?.message) return `request failed (${cause.message})`;
  return `request failed (${error instanceof Error ? error.message : String(error)})`;
}
