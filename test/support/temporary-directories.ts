import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A directory under the system's temporary one, removed after the test file (test/setup.ts). */
export function temporaryDirectory(prefix: string): string {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  made.push(directory);
  return directory;
}

export function removeTemporaryDirectories(): void {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
}
