import { setTimeout as sleep } from 'node:timers/promises';

const MINUTE_MS = 60_000;
const clockMinute = () => Math.floor(Date.now() / MINUTE_MS);

/**
 * Waits out the last seconds of a clock minute, so that a burst sent next is counted in one
 * minute window (the service's windows follow the wall clock).
 */
export async function insideOneMinute(): Promise<void> {
  const second = new Date().getUTCSeconds();
  if (second >= 50) await sleep((61 - second) * 1000);
}

/**
 * Runs a test's burst and its checks inside one clock minute, whatever the machine's speed: a
 * run that failed after crossing the end of a minute (its requests counted in two windows) runs
 * once more from the start of a fresh minute. `run` must hold all its state (keys, counters'
 * baselines), and a failure inside one minute is the test's own.
 */
export async function withinOneClockMinute(run: () => Promise<void>): Promise<void> {
  await insideOneMinute();
  const startedIn = clockMinute();
  try {
    await run();
  } catch (error) {
    if (clockMinute() === startedIn) throw error;
    await sleep((clockMinute() + 1) * MINUTE_MS - Date.now() + 100);
    await run();
  }
}
