import { afterFailedAttempt, retryDelayMs, WEBHOOK_RETRY_POLICY, type WebhookRetryPolicy } from './webhook-delivery.ts';
import type { WebhookMessage } from './webhooks.ts';

/**
 * The one loop that delivers webhooks, on AWS (a batch of the SQS FIFO queue) and under npm start
 * (the local store's outbox) alike. A group is one pet at one endpoint: only its oldest pending
 * delivery is attempted, and the next once it is delivered or dead-lettered, so a pet's events
 * reach each receiver in order. A failed attempt stops its group until the policy's next wait; a
 * delivery whose next wait would fall past the policy's period is dead-lettered, and its group goes
 * on. Each endpoint has attempts in flight of its own, so a receiver that hangs never delays
 * another's deliveries.
 *
 * Where the queue holds a delivery back for free (the outbox reads none it is not asked for), a
 * failing receiver is *probed*: none of its other groups is started, one delivery at a time (the
 * group due longest) is tried no sooner than the receiver's own backoff (the policy's schedule,
 * counted in its failures in a row), and a delivery that gets through lets every due group of it
 * flow again at once. Which receivers fail is kept in memory: the queue is the only state that
 * matters for what is owed.
 */

export type AttemptOutcome = { delivered: true; status: number } | { delivered: false; failure: string };

/** One signed POST of a webhook (functions/adapters/webhooks/webhook-sender.ts). */
export type SendWebhook = (url: string, message: WebhookMessage, key: Buffer, timeoutMs: number) => Promise<AttemptOutcome>;

/** A delivery as its queue gives it. */
export interface QueuedDelivery {
  url: string;
  eventId: string;
  /** The exact body every attempt sends. */
  body: string;
  /** When it was queued (ms): it is retried for the policy's retryForMs after it. */
  queuedAt: number;
  /** Its failed attempts so far. */
  attempts: number;
}

/** A group's oldest pending delivery, due: what its queue needs back to record the outcome. */
export interface DueHead<Delivery extends QueuedDelivery = QueuedDelivery> {
  due: Delivery;
}

/** What a queue of webhook deliveries must do for the loop. */
export interface WebhookDeliveryQueue<Head extends DueHead> {
  /** Up to `limit` groups of the endpoint due by nowMs, the longest due first. */
  due(url: string, nowMs: number, limit: number): Promise<string[]>;
  /** The group's oldest pending delivery, if it is due: not once the group is empty, nor while it waits for a retry. */
  head(group: string, nowMs: number): Promise<Head | undefined>;
  /** Done with the head's delivery; true when its group is left empty. */
  delivered(head: Head): Promise<boolean>;
  /** The group waits until dueAt, this delivery first. */
  retryLater(delivery: Head['due'], change: { attempts: number; dueAt: number; lastFailure: string }): Promise<void>;
  /** Kept apart as given up on; the group goes on without it. */
  deadLetter(delivery: Head['due'], change: { attempts: number; lastFailure: string; deadLetteredAt: number }): Promise<void>;
  /** Whether the endpoint has a delivery pending, due or not. */
  hasPending(url: string): Promise<boolean>;
}

/** What the loop tells the one running it, for its log. */
export interface WebhookDeliveryEvents<Delivery extends QueuedDelivery> {
  attemptFailed?(delivery: Delivery, attempts: number, failure: string): void;
  deadLettered?(delivery: Delivery, attempts: number, failure: string): void;
  /** A probed receiver failed, for the first time or otherwise than it was told. */
  receiverFailing?(url: string, failure: string): void;
  receiverAccepting?(url: string): void;
  /** The queue could not be read, or could not record the outcome of an attempt at `delivery`: the group stays due. */
  queueFailed?(error: unknown, url: string, delivery: Delivery | undefined): void;
  /** A round could not ask the queue; the next follows after RETRY_AFTER_QUEUE_FAILURE_MS. */
  roundFailed?(error: unknown): void;
}

/**
 * Attempts in flight at once to one endpoint. Each endpoint has its own: a receiver that hangs
 * holds its own attempts until their timeout, and never another endpoint's.
 */
export const MAX_ATTEMPTS_IN_FLIGHT_PER_ENDPOINT = 32;
/** Pause after a round that could not ask the queue (its store restarting) before the next. */
const RETRY_AFTER_QUEUE_FAILURE_MS = 1_000;

export interface WebhookDeliveryLoopOptions<Head extends DueHead> {
  queue: WebhookDeliveryQueue<Head>;
  /** The endpoints whose groups each round asks the queue for, read once, by the first round. */
  endpoints: () => Promise<readonly string[]>;
  signingKey: Buffer;
  send: SendWebhook;
  /** WEBHOOK_RETRY_POLICY unless a test's own. */
  policy?: WebhookRetryPolicy;
  now?: () => number;
  /**
   * Whether failing receivers are probed (above): not for an SQS batch, whose messages are received
   * already; each held back would spend one of its receives (MAX_RECEIVES, lib/inventory-events.ts)
   * untried, and at a probe's short waits those run out before the policy's period does.
   */
  probeFailingReceivers: boolean;
  /** The longest sleep between two rounds, for a queue that others add to without waking the loop; none by default. */
  idlePollMs?: number;
  events: WebhookDeliveryEvents<Head['due']>;
}

export interface WebhookDeliveryLoop {
  /** Runs a round at once (something was queued). */
  wake(): void;
  /** Resolves once no delivery is pending and none is in flight. */
  idle(): Promise<void>;
  /** Ends the rounds, and resolves once every attempt begun has been recorded. */
  close(): Promise<void>;
}

/**
 * A receiver whose last attempt failed: why (told once per change), its failures in a row (the
 * attempt that found it failing, then each failed probe: attempts begun before it failed do not
 * count), and when its next probe may start.
 */
interface FailingReceiver {
  failure: string;
  failures: number;
  probeAt: number;
}

/**
 * Runs rounds over the queue: at once when woken, when a group ends that a round had to skip, when a
 * retry or a probe falls due, and at least every idlePollMs. Each round starts serving each endpoint's
 * due groups, as many as it may have in flight, or a failing receiver's probe when one is owed; a
 * group is served by a task of its own, so a round never waits for an attempt.
 */
export function startWebhookDeliveryLoop<Head extends DueHead>(options: WebhookDeliveryLoopOptions<Head>): WebhookDeliveryLoop {
  const { queue, events, policy = WEBHOOK_RETRY_POLICY, now = Date.now } = options;
  /** Per endpoint, the groups being served, one task each; known once the first round read the endpoints. */
  let serving: Map<string, Set<string>> | undefined;
  /**
   * What a round left for later: groups it found due while they were being served (a delivery queued after their task
   * read them empty), and endpoints it found with no attempts to spare. A task that ends runs a round only for these: a
   * round after every delivery would cost a query of the queue each and find nothing new.
   */
  const skippedGroups = new Set<string>();
  const fullEndpoints = new Set<string>();
  const tasks = new Set<Promise<void>>();
  /** Rounds owed later: a retry or a probe falling due. */
  const roundTimers = new Set<ReturnType<typeof setTimeout>>();
  const failing = new Map<string, FailingReceiver>();
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
        roundTimers.delete(timer);
        wake();
      },
      Math.max(0, atMs - now()),
    );
    roundTimers.add(timer);
  }

  function receiverFailed(url: string, failure: string, probe: boolean): void {
    const receiver = failing.get(url);
    if (receiver?.failure !== failure) events.receiverFailing?.(url, failure);
    if (receiver && !probe) {
      receiver.failure = failure;
      return;
    }
    const failures = (receiver?.failures ?? 0) + 1;
    const probeAt = now() + retryDelayMs(policy, failures);
    failing.set(url, { failure, failures, probeAt });
    wakeAt(probeAt);
  }

  /** Sends the head's delivery (a probe when its receiver is failing) and records the outcome; true when the group may go on at once. */
  async function attempt(head: Head, probe: boolean): Promise<boolean> {
    const { due: delivery } = head;
    const message = { id: delivery.eventId, body: delivery.body };
    const outcome = await options.send(delivery.url, message, options.signingKey, policy.attemptTimeoutMs);
    if (outcome.delivered) {
      const emptied = await queue.delivered(head);
      if (failing.delete(delivery.url)) {
        events.receiverAccepting?.(delivery.url);
        // Its held-back groups flow again at once.
        wake();
      }
      return !emptied;
    }
    const attempts = delivery.attempts + 1;
    const { failure } = outcome;
    events.attemptFailed?.(delivery, attempts, failure);
    if (options.probeFailingReceivers) receiverFailed(delivery.url, failure, probe);
    const next = afterFailedAttempt(policy, attempts, delivery.queuedAt, now());
    if ('retryAtMs' in next) {
      await queue.retryLater(delivery, { attempts, dueAt: next.retryAtMs, lastFailure: failure });
      wakeAt(next.retryAtMs);
      return false;
    }
    // A dead letter does not hold up the pet's later events.
    await queue.deadLetter(delivery, { attempts, lastFailure: failure, deadLetteredAt: now() });
    events.deadLettered?.(delivery, attempts, failure);
    return true;
  }

  /** Serves one group: its due deliveries one after the other, oldest first, until it is empty, waits, or its receiver fails. */
  async function serve(url: string, group: string, probe: boolean): Promise<void> {
    let current: Head['due'] | undefined;
    try {
      for (;;) {
        // None too where a retry was recorded since a round found the group due: its own round, or the next poll, serves it.
        const head = await queue.head(group, now());
        if (!head) return;
        current = head.due;
        if (!(await attempt(head, probe)) || failing.has(url)) return;
      }
    } catch (error) {
      events.queueFailed?.(error, url, current);
    }
  }

  async function round(endpoints: Map<string, Set<string>>): Promise<void> {
    for (const [url, groups] of endpoints) {
      const probed = failing.get(url);
      // One probe at a time, after the attempts begun before the receiver failed, and no sooner than its backoff: the
      // queue is not even asked for the endpoint's groups until then.
      if (probed && (groups.size > 0 || now() < probed.probeAt)) continue;
      // A full endpoint is woken by one of its own groups ending.
      if (groups.size >= MAX_ATTEMPTS_IN_FLIGHT_PER_ENDPOINT) {
        fullEndpoints.add(url);
        continue;
      }
      // Groups being served may be among the due ones: asking for as many as the endpoint may serve finds every free one.
      for (const group of await queue.due(url, now(), probed ? 1 : MAX_ATTEMPTS_IN_FLIGHT_PER_ENDPOINT)) {
        if (groups.size >= MAX_ATTEMPTS_IN_FLIGHT_PER_ENDPOINT) {
          fullEndpoints.add(url);
          break;
        }
        if (groups.has(group)) {
          skippedGroups.add(group);
          continue;
        }
        groups.add(group);
        const task = serve(url, group, probed !== undefined).finally(() => {
          groups.delete(group);
          tasks.delete(task);
          const skipped = skippedGroups.delete(group);
          // A failing receiver's probe waited for its last attempt in flight to end.
          const probeOwed = failing.has(url) && groups.size === 0;
          if (fullEndpoints.delete(url) || skipped || probeOwed || idleWaiters.length > 0) wake();
        });
        tasks.add(task);
      }
    }
  }

  async function nothingPending(endpoints: Map<string, Set<string>>): Promise<boolean> {
    if (tasks.size > 0) return false;
    for (const url of endpoints.keys()) if (await queue.hasPending(url)) return false;
    return true;
  }

  const running = (async () => {
    while (!stopped) {
      let pauseMs = options.idlePollMs;
      woken = false;
      // Only a round begun after idle() was asked can tell it that nothing is pending: one begun before may miss what was queued since.
      const askedIdle = idleWaiters;
      idleWaiters = [];
      let idle = false;
      try {
        serving ??= new Map((await options.endpoints()).map((url) => [url, new Set<string>()]));
        await round(serving);
        idle = askedIdle.length > 0 && (await nothingPending(serving));
      } catch (error) {
        events.roundFailed?.(error);
        pauseMs = RETRY_AFTER_QUEUE_FAILURE_MS;
      }
      if (idle) for (const resolve of askedIdle) resolve();
      else idleWaiters.push(...askedIdle);
      if (stopped) break;
      if (woken) continue;
      await new Promise<void>((resolve) => {
        const timer = pauseMs === undefined ? undefined : setTimeout(resolve, pauseMs);
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
      for (const timer of roundTimers) clearTimeout(timer);
      for (const resolve of idleWaiters) resolve();
    },
  };
}
