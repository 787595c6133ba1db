import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebhookRetryPolicy } from '../../../functions/domain/webhook-delivery.ts';
import {
  type AttemptOutcome,
  type DueHead,
  MAX_ATTEMPTS_IN_FLIGHT_PER_ENDPOINT,
  type QueuedDelivery,
  startWebhookDeliveryLoop,
  type WebhookDeliveryLoop,
  type WebhookDeliveryQueue,
} from '../../../functions/domain/webhook-delivery-loop.ts';

/**
 * The delivery loop over a queue in memory, on a fake clock: what the outbox and the SQS batch hand it is covered by
 * their own tests (test/store/integration/webhook-delivery-worker.test.ts, test/fast/unit/deliver-webhooks-handler.test.ts).
 */

const POLICY: WebhookRetryPolicy = { firstRetryDelayMs: 1_000, maxRetryDelayMs: 8_000, retryForMs: 60_000, attemptTimeoutMs: 10_000 };
const A = 'https://a.example/hooks';
const B = 'https://b.example/hooks';

interface Queued extends QueuedDelivery {
  group: string;
}

/** Groups of deliveries, each due at its dueAt; what the loop recorded, in order. */
function memoryQueue(deliveries: Array<{ url: string; group: string; eventId: string }>) {
  const groups = new Map<string, { url: string; dueAt: number; items: Queued[] }>();
  for (const { url, group, eventId } of deliveries) {
    const entry = groups.get(group) ?? { url, dueAt: 0, items: [] };
    entry.items.push({ url, group, eventId, body: '{}', queuedAt: Date.now(), attempts: 0 });
    groups.set(group, entry);
  }
  const recorded: string[] = [];
  const due = async (url: string, nowMs: number, limit: number) =>
    [...groups]
      .filter(([, entry]) => entry.url === url && entry.items.length > 0 && entry.dueAt <= nowMs)
      .sort(([, a], [, b]) => a.dueAt - b.dueAt)
      .slice(0, limit)
      .map(([group]) => group);
  const queue: WebhookDeliveryQueue<DueHead<Queued>> = {
    due,
    async head(group, nowMs) {
      const entry = groups.get(group)!;
      const [oldest] = entry.items;
      return oldest && entry.dueAt <= nowMs ? { due: oldest } : undefined;
    },
    async delivered({ due: delivery }) {
      const entry = groups.get(delivery.group)!;
      entry.items.shift();
      recorded.push(`delivered ${delivery.eventId}`);
      return entry.items.length === 0;
    },
    async retryLater(delivery, { attempts, dueAt }) {
      delivery.attempts = attempts;
      groups.get(delivery.group)!.dueAt = dueAt;
      recorded.push(`retry ${delivery.eventId} in ${dueAt - Date.now()} ms`);
    },
    async deadLetter(delivery, { attempts }) {
      groups.get(delivery.group)!.items.shift();
      recorded.push(`dead ${delivery.eventId} after ${attempts}`);
    },
    hasPending: async (url) => (await due(url, Number.MAX_SAFE_INTEGER, 1)).length > 0,
  };
  return { queue, recorded };
}

let loop: WebhookDeliveryLoop | undefined;

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 10, 24, 8, 0, 0) });
});
afterEach(async () => {
  await loop?.close();
  loop = undefined;
  vi.useRealTimers();
});

/** Starts the loop; `answer` decides each attempt, and every attempt is noted with when it started. */
function start(
  queue: WebhookDeliveryQueue<DueHead<Queued>>,
  answer: (eventId: string) => AttemptOutcome | Promise<AttemptOutcome>,
  { probeFailingReceivers = true, policy = POLICY, idlePollMs = undefined as number | undefined } = {},
) {
  const attempts: Array<{ eventId: string; at: number }> = [];
  const notices: string[] = [];
  loop = startWebhookDeliveryLoop({
    queue,
    endpoints: async () => [A, B],
    signingKey: Buffer.alloc(32),
    send: async (_url, message) => {
      attempts.push({ eventId: message.id, at: Date.now() });
      return answer(message.id);
    },
    policy,
    now: Date.now,
    probeFailingReceivers,
    ...(idlePollMs === undefined ? {} : { idlePollMs }),
    events: {
      receiverFailing: (url, failure) => notices.push(`failing ${url} ${failure}`),
      receiverAccepting: (url) => notices.push(`accepting ${url}`),
    },
  });
  return { attempts, notices, loop };
}

const delivered: AttemptOutcome = { delivered: true, status: 204 };
const refused: AttemptOutcome = { delivered: false, failure: 'answered 500' };
const started = (attempts: Array<{ eventId: string; at: number }>) => attempts.map(({ eventId }) => eventId);

describe('the webhook delivery loop', () => {
  it("attempts a group's deliveries in order, and stops the group at a failed attempt until the policy's wait", async () => {
    const { queue, recorded } = memoryQueue(['1', '2', '3'].map((eventId) => ({ url: A, group: 'pet', eventId })));
    let failures = 0;
    const { attempts, loop } = start(queue, (eventId) => (eventId === '2' && failures++ === 0 ? refused : delivered));

    await vi.advanceTimersByTimeAsync(0);
    expect(started(attempts)).toEqual(['1', '2']);
    await vi.advanceTimersByTimeAsync(999);
    expect(started(attempts)).toEqual(['1', '2']);
    await vi.advanceTimersByTimeAsync(1);
    await loop.idle();

    expect(started(attempts)).toEqual(['1', '2', '2', '3']);
    expect(recorded).toEqual(['delivered 1', 'retry 2 in 1000 ms', 'delivered 2', 'delivered 3']);
  });

  it('dead-letters a delivery whose next wait would fall past the policy period, and goes on with its group', async () => {
    const { queue, recorded } = memoryQueue(['1', '2'].map((eventId) => ({ url: A, group: 'pet', eventId })));
    const { loop } = start(queue, (eventId) => (eventId === '1' ? refused : delivered), {
      policy: { ...POLICY, retryForMs: 2_500 },
    });

    await vi.advanceTimersByTimeAsync(10_000);
    await loop.idle();

    // Failed at 0 (next at 1 s), 1 s (next at 3 s: past 2.5 s).
    expect(recorded).toEqual(['retry 1 in 1000 ms', 'dead 1 after 2', 'delivered 2']);
  });

  it('probes a failing receiver: one group at a time at its own backoff, and every due group at once after a success', async () => {
    const pets = Array.from({ length: 5 }, (_, index) => `pet-${index}`);
    const { queue } = memoryQueue(pets.map((group) => ({ url: A, group, eventId: `${group}:1` })));
    let down = true;
    const { attempts, notices, loop } = start(queue, () => (down ? refused : delivered));

    // The first round attempts every due group; all fail, and the receiver is failing.
    await vi.advanceTimersByTimeAsync(0);
    expect(attempts).toHaveLength(5);
    // Then one probe each backoff (1 s, 2 s, 4 s), and nothing between.
    await vi.advanceTimersByTimeAsync(7_000);
    expect(attempts.slice(5).map(({ at }) => at - attempts[0]!.at)).toEqual([1_000, 3_000, 7_000]);

    down = false;
    await vi.advanceTimersByTimeAsync(8_000);
    await loop.idle();

    // The probe at 15 s gets through, and the four other groups go at once after it.
    const after = attempts.slice(8);
    expect(after.map(({ at }) => at - attempts[0]!.at)).toEqual([15_000, 15_000, 15_000, 15_000, 15_000]);
    expect(new Set(after.map(({ eventId }) => eventId))).toEqual(new Set(pets.map((group) => `${group}:1`)));
    expect(notices).toEqual([`failing ${A} answered 500`, `accepting ${A}`]);
  });

  it('holds back nothing where the queue cannot (an SQS batch): every group of a failing receiver is attempted', async () => {
    const { queue } = memoryQueue(['pet-1', 'pet-2', 'pet-3'].map((group) => ({ url: A, group, eventId: `${group}:1` })));
    const { attempts, notices } = start(queue, () => refused, { probeFailingReceivers: false });

    await vi.advanceTimersByTimeAsync(1_000);
    expect(attempts.map(({ at }) => at - attempts[0]!.at)).toEqual([0, 0, 0, 1_000, 1_000, 1_000]);
    expect(notices).toEqual([]);
  });

  it("keeps each endpoint's own attempts in flight: a receiver that hangs holds its own, never another's", async () => {
    const { queue, recorded } = memoryQueue([
      ...Array.from({ length: MAX_ATTEMPTS_IN_FLIGHT_PER_ENDPOINT + 8 }, (_, index) => ({
        url: A,
        group: `a-${index}`,
        eventId: `a-${index}`,
      })),
      ...Array.from({ length: 40 }, (_, index) => ({ url: B, group: `b-${index}`, eventId: `b-${index}` })),
    ]);
    const hanging: Array<() => void> = [];
    let answering = false;
    // The poll npm start has: the groups past an endpoint's first 32 wait for it.
    const { attempts, loop } = start(
      queue,
      (eventId) =>
        eventId.startsWith('a-') && !answering
          ? new Promise<AttemptOutcome>((resolve) => hanging.push(() => resolve(delivered)))
          : delivered,
      { idlePollMs: 1_000 },
    );

    try {
      await vi.advanceTimersByTimeAsync(1_000);
      await vi.waitFor(() => expect(recorded.filter((line) => line.startsWith('delivered b-'))).toHaveLength(40));
      expect(attempts.filter(({ eventId }) => eventId.startsWith('a-'))).toHaveLength(MAX_ATTEMPTS_IN_FLIGHT_PER_ENDPOINT);
    } finally {
      answering = true;
      for (const answer of hanging) answer();
    }
    await loop.idle();
    expect(recorded.filter((line) => line.startsWith('delivered a-'))).toHaveLength(MAX_ATTEMPTS_IN_FLIGHT_PER_ENDPOINT + 8);
  });
});
