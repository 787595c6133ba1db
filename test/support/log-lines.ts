import { vi } from 'vitest';

/** Every line written to stdout and stderr while `act` runs, parsed: each line must be one JSON object. */
export async function linesWrittenBy(act: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const written: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    await act();
  } finally {
    vi.restoreAllMocks();
  }
  return written
    .join('')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
