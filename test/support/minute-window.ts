/**
 * Waits out the last seconds of a clock minute, so that a burst sent next is counted in one
 * minute window (the service's windows follow the wall clock).
 */
export async function insideOneMinute(): Promise<void> {
  const second = new Date().getUTCSeconds();
  if (second >= 50) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
}
