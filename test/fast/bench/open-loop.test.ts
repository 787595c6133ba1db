import { describe, expect, it } from 'vitest';
import { openLoop, type LoadClock } from '../../../bench/open-loop.ts';

/** A clock that moves only when told: sleepers wake in order of their wake-up time, each at its time plus `late(ms)`. */
function manualClock(late: (dueIn: number) => number = () => 0) {
  let time = 0;
  const sleepers: { at: number; wake: () => void }[] = [];
  const clock: LoadClock = {
    now: () => time,
    sleep: (ms) =>
      new Promise<void>((wake) => {
        sleepers.push({ at: time + ms + late(ms), wake });
        sleepers.sort((a, b) => a.at - b.at);
      }),
  };
  /** Moves the clock to `to`, waking each sleeper due by then at its own time. */
  const advance = async (to: number) => {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      const next = sleepers[0];
      if (!next || next.at > to) break;
      sleepers.shift();
      time = next.at;
      next.wake();
    }
    time = to;
  };
  return { clock, advance };
}

describe('openLoop', () => {
  it('sends request i at start + i / rate whatever the others do: a slow answer holds no later request back', async () => {
    const { clock, advance } = manualClock();
    // Request 0 is answered after 1 s, the others at once: a closed loop would send request 1 only after 1 s.
    const run = openLoop({ rate: 10, seconds: 0.5, leadMs: 0, clock }, (index) => clock.sleep(index === 0 ? 1_000 : 0));
    await advance(2_000);
    const requests = await run;
    expect(requests.map(({ sentAt }) => sentAt)).toEqual([0, 100, 200, 300, 400]);
    expect(requests.map(({ latency }) => latency)).toEqual([1_000, 0, 0, 0, 0]);
  });

  it("takes latency from the scheduled send, so the load's own lateness is counted, not hidden (coordinated omission)", async () => {
    // Every wake-up comes 30 ms late, as when the load generator's event loop is busy; the server answers in 5 ms.
    const { clock, advance } = manualClock((ms) => (ms > 0 ? 30 : 0));
    const run = openLoop({ rate: 10, seconds: 0.3, leadMs: 50, clock }, () => clock.sleep(5));
    await advance(1_000);
    const requests = await run;
    expect(requests.map(({ dueAt }) => dueAt)).toEqual([50, 150, 250]);
    expect(requests.map(({ sentAt, dueAt }) => sentAt - dueAt)).toEqual([30, 30, 30]);
    expect(requests.map(({ latency }) => latency)).toEqual([65, 65, 65]);
    expect(requests.map(({ answeredAt, sentAt }) => answeredAt - sentAt)).toEqual([35, 35, 35]);
  });

  it('keeps the order of the schedule and what each send answered', async () => {
    const { clock, advance } = manualClock();
    const run = openLoop({ rate: 4, seconds: 1, clock }, async (index) => {
      await clock.sleep(10 * (4 - index));
      return `answer ${index}`;
    });
    await advance(5_000);
    expect((await run).map(({ index, answer }) => [index, answer])).toEqual([
      [0, 'answer 0'],
      [1, 'answer 1'],
      [2, 'answer 2'],
      [3, 'answer 3'],
    ]);
  });
});
