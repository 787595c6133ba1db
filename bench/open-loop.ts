import { setTimeout as sleepFor } from 'node:timers/promises';

/** How the load reads the time and waits: the process's monotonic clock by default, a fake one in tests. */
export interface LoadClock {
  now(): number;
  sleep(ms: number): Promise<unknown>;
}

const PROCESS_CLOCK: LoadClock = { now: () => performance.now(), sleep: (ms) => sleepFor(ms) };

/** One request of an open loop, on one clock: when it was due, sent and answered, and what `send` returned. */
export interface ScheduledRequest<Answer> {
  index: number;
  dueAt: number;
  sentAt: number;
  answeredAt: number;
  /** From when it was due to its answer: a queue anywhere, the load's own lateness included, shows here. */
  latency: number;
  answer: Answer;
}

export interface OpenLoopOptions {
  /** Requests a second. */
  rate: number;
  seconds: number;
  /** Request 0 is due this long after the call, so that the first ones are not late by the setup. */
  leadMs?: number;
  clock?: LoadClock;
}

/**
 * `rate × seconds` requests, open loop: request i is due at start + i / rate whatever the others
 * do, and its latency counts from when it was due, not from when it was sent. A closed loop, or
 * latency taken from the send, hides every request a slow answer (or a busy load generator) held
 * back: coordinated omission, which reports the server's speed when it is idle, not a client's wait.
 */
export async function openLoop<Answer>(
  options: OpenLoopOptions,
  send: (index: number) => Promise<Answer>,
): Promise<ScheduledRequest<Answer>[]> {
  const clock = options.clock ?? PROCESS_CLOCK;
  const start = clock.now() + (options.leadMs ?? 100);
  const total = Math.round(options.rate * options.seconds);
  return Promise.all(
    Array.from({ length: total }, async (_, index) => {
      const dueAt = start + (index * 1_000) / options.rate;
      await clock.sleep(Math.max(0, dueAt - clock.now()));
      const sentAt = clock.now();
      const answer = await send(index);
      const answeredAt = clock.now();
      return { index, dueAt, sentAt, answeredAt, latency: answeredAt - dueAt, answer };
    }),
  );
}
