import { sendWebhook, type AttemptOutcome } from '../functions/adapters/webhooks/webhook-sender.ts';
import { afterFailedAttempt, retryDelayMs, WEBHOOK_RETRY_POLICY, type WebhookRetryPolicy } from '../functions/domain/webhook-delivery.ts';
import { webhookUrlForLogs, type WebhookMessage } from '../functions/domain/webhooks.ts';
import type { DueHead, OutboxDelivery, WebhookOutbox } from './webhook-outbox.ts';

/**
 * npm start's webhook sender: asks the outbox, endpoint by endpoint, which queues (one pet at one
 * endpoint) are due, and serves each one: its oldest pending delivery is attempted, the outcome
 * recorded in the outbox, then the next, until the queue is empty or waits for a retry. It runs
 * beside the server and shares nothing with a request but the store, so a slow or dead receiver
 * never slows an answer; each endpoint has attempts in flight of its own, so a receiver that
 * hangs never delays another's deliveries.
 *
 * An endpoint whose attempt fails is *failing*: its queues are held back, and it is probed, one
 * delivery at a time (the queue due longest), no sooner than its own backoff, which follows the
 * retry policy counted in consecutive failed probes. A delivery that gets through ends the failing
 * state, and every due queue of the endpoint flows again at once. A held-back delivery is not
 * attempted, so its attempts and due entry stay as they are: a dead receiver's backlog costs one
 * attempt per backoff, not one per pet. The failing state is in memory; the outbox is the only
 * state that matters for what is owed: after a restart the worker picks up exactly where the
 * outbox says, and its first round finds out again which receivers fail.
 */

/**
 * An endpoint whose last attempt failed: why (told once per change), its failures in a row (the
 * attempt that found it failing, then each failed probe: attempts begun before it failed do not
 * count), and when its next probe may start.
 */
interface FailingEndpoint {
  failure: string;
  failures: number;
  probeAt: number;
}

/**
 * Attempts in flight at once to one endpoint. Each endpoint has its own: a receiver that hangs
 * holds its own attempts until their timeout, and never another endpoint's.
 */
export const MAX_ATTEMPTS_IN_FLIGHT_PER_ENDPOINT = 32;
/** The longest sleep between two asks of the outbox: a redrive made by another process is seen within it. */
const IDLE_POLL_MS = 1_000;
/** Pause after a failed read of the outbox (the store restarting) before the next. */
const RETRY_AFTER_STORE_FAILURE_MS = 1_000;

export interface WebhookDeliveryOptions {
  outbox: WebhookOutbox;
  signingKey: Buffer;
  /** The endpoints changes are queued for (WEBHOOK_URL); those the outbox holds deliveries for at start are served too. */
  endpoints: readonly string[];
  policy?: WebhookRetryPolicy;
  /** Told of a receiver that starts or stops failing, and of every dead letter, in one line each. */
  onNotice?: (line: string) => void;
  send?: (url: string, message: WebhookMessage, key: Buffer, timeoutMs: number) => Promise<AttemptOutcome>;
  now?: () => number;
  /** The longest sleep between two asks of the outbox, IDLE_POLL_MS by default. */
  idlePollMs?: number;
}

export interface WebhookDeliveries {
  /** Asks the outbox at once (after the consumer queued something). */
  wake(): void;
  /** Resolves once no delivery is pending and none is in flight. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export function startWebhookDeliveries(options: WebhookDeliveryOptions): WebhookDeliveries {
  const { outbox } = options;
  const policy = options.policy ?? WEBHOOK_RETRY_POLICY;
  const send = options.send ?? sendWebhook;
  const now = options.now ?? Date.now;
  const notice = options.onNotice ?? (() => undefined);
  /** Per endpoint, the queues being served, one task each; known once the outbox was read at start. */
  let serving: Map<string, Set<string>> | undefined;
  /**
   * What a round left for later: queues it found due while they were being served (a delivery queued after their
   * task read them empty), and endpoints it found with no attempts to spare. A task that ends wakes the sender only
   * for these: a round after every delivery would cost a query of the due index each and find nothing new.
   */
  const skippedQueues = new Set<string>();
  const fullEndpoints = new Set<string>();
  const tasks = new Set<Promise<void>>();
  /** Wakes for the retries scheduled: the sender asks the outbox again when one falls due. */
  const retryTimers = new Set<NodeJS.Timeout>();
  /** The endpoints whose last attempt failed: they are probed, not served. */
  const failing = new Map<string, FailingEndpoint>();
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  /** Set by a wake that comes while a round runs, so that the next round follows at once. */
  let woken = false;
  let idleWaiters: Array<() => void> = [];

  function wake(): void {
    woken = true;
    wakeUp?.();
  }

  function wakeAt(atMs: number): void {
    const timer = setTimeout(
      () => {
        retryTimers.delete(timer);
        wake();
      },
      Math.max(0, atMs - now()),
    );
    retryTimers.add(timer);
  }

  /**
   * Sends the head's delivery (a probe when its endpoint is failing) and records the outcome; true when the queue's
   * next delivery may follow at once.
   */
  async function attempt(head: DueHead, probe: boolean): Promise<boolean> {
    const { due: delivery } = head;
    const shownUrl = webhookUrlForLogs(delivery.url);
    const outcome = await send(delivery.url, { id: delivery.eventId, body: delivery.body }, options.signingKey, policy.attemptTimeoutMs);
    if (outcome.delivered) {
      const emptied = await outbox.delivered(head);
      if (failing.delete(delivery.url)) {
        notice(`Webhook receiver ${shownUrl} accepts deliveries again.`);
        // Its held-back queues flow again at once.
        wake();
      }
      return !emptied;
    }
    const attempts = delivery.attempts + 1;
    const endpoint = failing.get(delivery.url);
    if (endpoint?.failure !== outcome.failure)
      notice(`Webhook receiver ${shownUrl} failed: ${outcome.failure}; its deliveries wait while one at a time is retried with backoff.`);
    if (!endpoint || probe) {
      const failures = (endpoint?.failures ?? 0) + 1;
      const probeAt = now() + retryDelayMs(policy, failures);
      failing.set(delivery.url, { failure: outcome.failure, failures, probeAt });
      wakeAt(probeAt);
    } else endpoint.failure = outcome.failure;
    const next = afterFailedAttempt(policy, attempts, delivery.queuedAt, now());
    if ('retryAtMs' in next) {
      await outbox.retryLater(delivery, { attempts, dueAt: next.retryAtMs, lastFailure: outcome.failure });
      wakeAt(next.retryAtMs);
      return false;
    }
    // A dead letter does not hold up the pet's later changes.
    await outbox.deadLetter(delivery, { attempts, lastFailure: outcome.failure, deadLetteredAt: now() });
    notice(
      `Webhook ${delivery.eventId} to ${shownUrl} dead-lettered after ${attempts} attempts (${outcome.failure}); npm run events -- redrive sends it again.`,
    );
    return true;
  }

  /**
   * Serves one queue: its due deliveries one after the other, oldest first, until it is empty, waits for a retry, or
   * its endpoint fails; a probe when the endpoint is failing.
   */
  async function serve(url: string, queue: string, probe: boolean): Promise<void> {
    let current: OutboxDelivery | undefined;
    try {
      for (;;) {
        const head = await outbox.head(queue, now());
        if (!head) return;
        if ('dueAt' in head) {
          // Found due by a round that read before its retry was recorded.
          wakeAt(head.dueAt);
          return;
        }
        current = head.due;
        if (!(await attempt(head, probe)) || failing.has(url)) return;
      }
    } catch (error) {
      // The queue's due entry stays due: the next round serves it again.
      notice(
        current
          ? `Webhook ${current.eventId}: the outbox could not record an attempt (${String(error)}); it is sent again.`
          : `Webhooks to ${webhookUrlForLogs(url)}: the outbox could not be read (${String(error)}); retrying.`,
      );
    }
  }

  /** Starts serving the due queues of each endpoint that has attempts to spare, and probes each failing one that is owed a probe. */
  async function round(): Promise<void> {
    serving ??= new Map([...new Set([...options.endpoints, ...(await outbox.recover(now()))])].map((url) => [url, new Set<string>()]));
    for (const [url, queues] of serving) {
      const probing = failing.get(url);
      // One probe at a time, after the attempts begun before the endpoint failed, and no sooner than its backoff: the
      // endpoint's part of the due index is not even asked until then.
      if (probing && (queues.size > 0 || now() < probing.probeAt)) continue;
      // A full endpoint is woken by one of its own queues ending.
      if (queues.size >= MAX_ATTEMPTS_IN_FLIGHT_PER_ENDPOINT) {
        fullEndpoints.add(url);
        continue;
      }
      // Queues being served may be among the due ones: asking for as many as the endpoint may serve finds every free one.
      for (const queue of await outbox.due(url, now(), probing ? 1 : MAX_ATTEMPTS_IN_FLIGHT_PER_ENDPOINT)) {
        if (queues.size >= MAX_ATTEMPTS_IN_FLIGHT_PER_ENDPOINT) {
          fullEndpoints.add(url);
          break;
        }
        if (queues.has(queue)) {
          skippedQueues.add(queue);
          continue;
        }
        queues.add(queue);
        const task = serve(url, queue, probing !== undefined).finally(() => {
          queues.delete(queue);
          tasks.delete(task);
          const owed = skippedQueues.delete(queue);
          // A failing endpoint's probe waited for its last attempt in flight to end.
          const probeOwed = failing.has(url) && queues.size === 0;
          if (fullEndpoints.delete(url) || owed || probeOwed || idleWaiters.length > 0) wake();
        });
        tasks.add(task);
      }
    }
  }

  /** Whether nothing is in flight and no endpoint has a delivery pending. */
  async function nothingPending(): Promise<boolean> {
    if (tasks.size > 0 || !serving) return false;
    for (const url of serving.keys()) if (await outbox.hasPending(url)) return false;
    return true;
  }

  const running = (async () => {
    while (!stopped) {
      let pauseMs = options.idlePollMs ?? IDLE_POLL_MS;
      woken = false;
      // Only a round begun after idle() was asked can tell it that nothing is pending: one begun before may miss what was queued since.
      const askedIdle = idleWaiters;
      idleWaiters = [];
      let idle = false;
      try {
        await round();
        idle = askedIdle.length > 0 && (await nothingPending());
      } catch (error) {
        notice(`Webhook deliveries paused: the outbox could not be read (${String(error)}).`);
        pauseMs = RETRY_AFTER_STORE_FAILURE_MS;
      }
      if (idle) for (const resolve of askedIdle) resolve();
      else idleWaiters.push(...askedIdle);
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
      await Promise.all(tasks);
      for (const timer of retryTimers) clearTimeout(timer);
      for (const resolve of idleWaiters) resolve();
    },
  };
}
