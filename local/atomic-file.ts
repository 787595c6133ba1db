import { randomBytes } from 'node:crypto';
import * as nodeFs from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** What writeFileAtomically needs of the file system; tests pass one that fails where they choose. */
export type AtomicWriteFileSystem = Pick<typeof nodeFs, 'open' | 'rename' | 'rm' | 'stat'>;

/** A write that failed: the file named is as it was before (or still absent), and the message says so in one line. */
export class AtomicWriteError extends Error {
  override name = 'AtomicWriteError';
}

/**
 * Writes a file so that a reader, a crash or a full disk never leaves it half written: the
 * text goes to a temporary file beside it (same directory, so the same file system), is
 * flushed to disk, and is renamed over the file, which POSIX makes one step. On any failure
 * the temporary file is removed, the old file is left whole, and the error says so.
 */
export async function writeFileAtomically(
  file: string,
  data: string | Uint8Array,
  { mode, fileSystem = nodeFs }: { mode?: number; fileSystem?: AtomicWriteFileSystem } = {},
): Promise<void> {
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await fileSystem.open(temporary, 'wx', mode ?? 0o666);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fileSystem.rename(temporary, file);
  } catch (error) {
    await fileSystem.rm(temporary, { force: true }).catch(() => undefined);
    const existed = await fileSystem.stat(file).then(
      () => true,
      () => false,
    );
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new AtomicWriteError(
      `Could not write ${file} (${reason}): ${existed ? 'the file is unchanged, as it was before' : 'no file was written'}.`,
      { cause: error },
    );
  }
}
