import { readFileSync } from 'node:fs';

/** Linux's clock ticks a second (USER_HZ): 100 on every kernel the bench runs on. */
const TICKS_PER_SECOND = 100;

/**
 * The CPU time (user and system, in ms) a process has used so far, from /proc/<pid>/stat; undefined
 * where there is no /proc (macOS) or the process is gone. With it a step's figures say how much
 * CPU a change took from each process, which the machine's load does not change much, where
 * latency says how long it waited for a core, which the load does.
 */
export function processCpuMs(pid: number): number | undefined {
  try {
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
