import { sendWebhook, type AttemptOutcome } from '../functions/adapters/webhooks/webhook-sender.ts';
import { afterFailedAttempt, WEBHOOK_RETRY_POLICY, type WebhookRetryPolicy } from '../functions/domain/webhook-delivery.ts';
import { webhookUrlForLogs, type WebhookMessage } from '../functions/domain/webhooks.ts';
import type { OutboxDelivery, WebhookOutbox } from './webhook-outbox.ts';

/**
 * npm start's webhook sender: reads the outbox, attempts the oldest pending delivery of each
 * queue (one pet at one endpoint) when it is due, and records the outcome in the outbox before
 * it moves on. It runs beside the server and shares nothing with a request but the store, so a
 * slow or dead receiver never slows an answer. The outbox is the only state that matters: after
 * a restart the worker picks up exactly where the outbox says.
 */

/**
 * Attempts in flight at once to one endpoint. Each endpoint has its own: a receiver that hangs
 * holds its own attempts until their timeout, and never another endpoint's.
 */
export const MAX_ATTEMPTS_IN_FLIGHT_PER_ENDPOINT = 32;
/** The longest sleep between two reads of the outbox: a redrive made by another process is seen within it. */
const IDLE_POLL_MS = 1_000;
/** Pause after a failed read of the outbox (the store restarting) before the next. */
const RETRY_AFTER_STORE_FAILURE_MS = 1_000;

export interface WebhookDeliveryOptions {
  outbox: WebhookOutbox;
  signingKey: Buffer;
  policy?: WebhookRetryPolicy;
  /** Told of a receiver that starts or stops failing, and of every dead letter, in one line each. */
  onNotice?: (line: string) => void;
  send?: (url: string, message: WebhookMessage, key: Buffer, timeoutMs: number) => Promise<AttemptOutcome>;
  now?: () => number;
}

export interface WebhookDeliveries {
  /** Reads the outbox at once (after the consumer queued something). */
  wake(): void;
  /** Resolves once no delivery is pending and none is in flight. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export function startWebhookDeliveries(options: WebhookDeliveryOptions): WebhookDeliveries {
  const policy = options.policy ?? WEBHOOK_RETRY_POLICY;
  const send = options.send ?? sendWebhook;
  const now = options.now ?? Date.now;
  const notice = options.onNotice ?? (() => undefined);
  const inFlight = new Map<string, Promise<void>>();
  /** Attempts in flight per endpoint. */
  const inFlightTo = new Map<string, number>();
  /** The receivers whose last attempt failed, and why: a change of state is told once, not every attempt. */
  const failing = new Map<string, string>();
  /**
   * A clock of reads and settled attempts: an attempt that settled after a read began makes that
   * read's view of its queue stale (it may still list what was just delivered), so it is skipped.
   */
  let tick = 0;
  const settledAt = new Map<string, number>();
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  /** Set by a wake that comes while a round runs, so that the next round follows at once. */
  let woken = false;
  let idleWaiters: Array<() => void> = [];

  async function attempt(delivery: OutboxDelivery): Promise<void> {
    const outcome = await send(delivery.url, { id: delivery.eventId, body: delivery.body }, options.signingKey, policy.attemptTimeoutMs);
    if (outcome.delivered) {
      await options.outbox.delivered(delivery);
      if (failing.delete(delivery.url)) notice(`Webhook receiver ${webhookUrlForLogs(delivery.url)} accepts deliveries again.`);
      return;
    }
    const attempts = delivery.attempts + 1;
    if (failing.get(delivery.url) !== outcome.failure) {
      failing.set(delivery.url, outcome.failure);
      notice(`Webhook receiver ${webhookUrlForLogs(delivery.url)} failed: ${outcome.failure}; retrying with backoff.`);
    }
    const next = afterFailedAttempt(policy, attempts, delivery.queuedAt, now());
    if ('retryAtMs' in next) {
      await options.outbox.retryLater(delivery, { attempts, nextAttemptAt: next.retryAtMs, lastFailure: outcome.failure });
      return;
    }
    await options.outbox.deadLetter(delivery, { attempts, lastFailure: outcome.failure, deadLetteredAt: now() });
    notice(
      `Webhook ${delivery.eventId} to ${webhookUrlForLogs(delivery.url)} dead-lettered after ${attempts} attempts (${outcome.failure}); npm run events -- redrive sends it again.`,
    );
  }

  /** Starts every due head of queue not in flight; returns when the next one falls due, if any. */
  async function round(): Promise<number | undefined> {
    const readAt = ++tick;
    // Only a read begun after idle() was asked can tell it that nothing is pending: one begun before may miss what was queued since.
    const askedIdle = idleWaiters;
    idleWaiters = [];
    let pending: OutboxDelivery[];
    try {
      pending = await options.outbox.list('pending');
    } catch (error) {
      idleWaiters.push(...askedIdle);
      throw error;
    }
    const heads = new Map<string, OutboxDelivery>();
    for (const delivery of pending) {
      const head = heads.get(delivery.queue);
      if (!head || delivery.version < head.version) heads.set(delivery.queue, delivery);
    }
    let nextDue: number | undefined;
    const time = now();
    for (const [queue, head] of heads) {
      if (inFlight.has(queue)) continue;
      if ((settledAt.get(queue) ?? 0) > readAt) {
        nextDue = time;
        continue;
      }
      if (head.nextAttemptAt > time) {
        nextDue = Math.min(nextDue ?? Number.POSITIVE_INFINITY, head.nextAttemptAt);
        continue;
      }
      // A full endpoint is woken by the settling of one of its own attempts.
      if ((inFlightTo.get(head.url) ?? 0) >= MAX_ATTEMPTS_IN_FLIGHT_PER_ENDPOINT) continue;
      inFlightTo.set(head.url, (inFlightTo.get(head.url) ?? 0) + 1);
      const running = attempt(head)
        .catch((error: unknown) =>
          notice(`Webhook ${head.eventId}: the outbox could not record an attempt (${String(error)}); it is sent again.`),
        )
        .finally(() => {
          settledAt.set(queue, ++tick);
          inFlight.delete(queue);
          inFlightTo.set(head.url, inFlightTo.get(head.url)! - 1);
          wake();
        });
      inFlight.set(queue, running);
    }
    // Attempts settled before this read are in what it read: their marks are no longer needed.
    for (const [queue, at] of settledAt) if (at < readAt) settledAt.delete(queue);
    if (heads.size === 0 && inFlight.size === 0) for (const resolve of askedIdle) resolve();
    else idleWaiters.push(...askedIdle);
    return nextDue;
  }

  function wake(): void {
    woken = true;
    wakeUp?.();
  }

  const running = (async () => {
    while (!stopped) {
      let pauseMs = IDLE_POLL_MS;
      woken = false;
      try {
        const nextDue = await round();
        if (nextDue !== undefined) pauseMs = Math.min(pauseMs, Math.max(0, nextDue - now()));
      } catch (error) {
        notice(`Webhook deliveries paused: the outbox could not be read (${String(error)}).`);
        pauseMs = RETRY_AFTER_STORE_FAILURE_MS;
      }
      if (stopped) break;
      if (woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pauseMs);
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = undefined;
    }
  })();

  return {
    wake,
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        wake();
      }),
    async close() {
      stopped = true;
      wake();
      await running;
      await Promise.all(inFlight.values());
      for (const resolve of idleWaiters) resolve();
    },
  };
}
