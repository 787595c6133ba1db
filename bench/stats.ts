/**
 * Nearest-rank percentile (p from 0 to 100): always one of the measured values, never an
 * interpolation between two, so a reported p99 is a latency that really happened.
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error('percentile of no samples');
  if (!(p >= 0 && p <= 100)) throw new Error(`percentile must be within 0..100, not ${p}`);
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/** The middle value; sample counts are kept odd so that it is the exact middle run. */
export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}
