import { availableParallelism, cpus, release, totalmem, type } from 'node:os';

/** What the figures were measured on: they mean little without it. */
export function describeMachine(): string {
  const model = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const memory = (totalmem() / 1024 ** 3).toFixed(1);
  return `${model}, ${availableParallelism()} cores, ${memory} GiB memory, ${type()} ${release()}, Node ${process.version}`;
}
