/**
 * What an answer says of the limits that counted its request: each window's limit, what is left
 * and when it resets. Plan limits (plan-limiter.ts), failed authentications and the health
 * check's per-address window all report in these terms; errors carry it as a detail.
 */

/** One window (a quota policy in the draft's words) as an answer reports it. */
export interface WindowState {
  /** The policy's name in RateLimit-Policy and RateLimit. */
  policy: string;
  limit: number;
  /** The window's length in seconds (the draft's `w`). */
  seconds: number;
  remaining: number;
  /** Unix seconds at which more requests are admitted; absent where the answer cannot know it (a static gateway template). */
  resetsAt?: number;
}

/**
 * What an answer reports: every window that applies, and at the top level the one X-RateLimit-*
 * describe (the closest to exhaustion). Made by rateLimitState only, so that the two agree.
 */
export interface RateLimitState extends WindowState {
  windows: readonly WindowState[];
  /** Unix seconds at which the state was taken: RateLimit's `t` counts from it. */
  at?: number;
}

export function rateLimitState(
  windows: readonly WindowState[],
  at: number | undefined,
  reported: WindowState = closestToExhaustion(windows),
): RateLimitState {
  if (!windows.includes(reported)) throw new Error(`The reported window ${reported.policy} is not one of the answer's windows.`);
  return { ...reported, windows, at };
}

/**
 * The window closest to exhaustion (fewest remaining); on a tie, the longer window, since
 * waiting for the shorter one to reset would not free more requests than the longer allows.
 */
export function closestToExhaustion<State extends { remaining: number; resetsAt?: number }>(states: readonly State[]): State {
  return states.reduce((closest, state) =>
    state.remaining < closest.remaining || (state.remaining === closest.remaining && (state.resetsAt ?? 0) > (closest.resetsAt ?? 0))
      ? state
      : closest,
  );
}
