import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Whether the module at moduleUrl (its import.meta.url) is the script Node was asked to run, so
 * that a tool runs its command only then, and not when a test imports it. Compared as paths, not
 * as `file://${process.argv[1]}`: a URL percent-encodes a space, and Node names the main module
 * by its real path where argv[1] may go through a symbolic link.
 */
export function isMainModule(moduleUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && realPath(fileURLToPath(moduleUrl)) === realPath(resolve(script));
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
