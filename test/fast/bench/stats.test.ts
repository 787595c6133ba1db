import { describe, expect, it } from 'vitest';
import { median, percentile } from '../../../bench/stats.ts';

describe('percentile (nearest rank)', () => {
  it('returns a measured value, never an interpolation', () => {
    expect(percentile([10, 20, 30, 40], 50)).toBe(20);
    expect(percentile([10, 20, 30, 40], 75)).toBe(30);
  });

  it('takes the largest value for p100 and the smallest for p0', () => {
    expect(percentile([3, 1, 2], 100)).toBe(3);
    expect(percentile([3, 1, 2], 0)).toBe(1);
  });

  it('reaches the slowest of 100 samples only at p100, and the 99th at p99', () => {
    const samples = Array.from({ length: 100 }, (_, index) => 100 - index);
    expect(percentile(samples, 99)).toBe(99);
    expect(percentile(samples, 100)).toBe(100);
  });

  it("does not reorder the caller's samples", () => {
    const samples = [3, 1, 2];
    percentile(samples, 50);
    expect(samples).toEqual([3, 1, 2]);
  });

  it('refuses no samples and out-of-range percentiles', () => {
    expect(() => percentile([], 50)).toThrow();
    expect(() => percentile([1], 101)).toThrow();
  });
});

describe('median', () => {
  it('is the middle sample of an odd count', () => {
    expect(median([5, 1, 9, 3, 7])).toBe(5);
  });
});
