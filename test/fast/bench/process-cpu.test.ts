import { describe, expect, it } from 'vitest';
import { processCpuMs } from '../../../bench/process-cpu.ts';

describe.runIf(process.platform === 'linux')('processCpuMs', () => {
  it("reads a live process's CPU time from /proc, in ms, and it only grows", () => {
    const before = processCpuMs(process.pid)!;
    let spin = 0;
    for (let index = 0; index < 5_000_000; index += 1) spin += index % 7;
    expect(spin).toBeGreaterThan(0);
    expect(before).toBeGreaterThanOrEqual(0);
    expect(processCpuMs(process.pid)!).toBeGreaterThanOrEqual(before);
  });

  it('is undefined for a process that is gone, instead of failing the step', () => {
    expect(processCpuMs(2 ** 22 + 1)).toBeUndefined();
  });
});
