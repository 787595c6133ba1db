import * as nodeFs from 'node:fs/promises';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AtomicWriteError, writeFileAtomically, type AtomicWriteFileSystem } from '../../../local/atomic-file.ts';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'atomic-file-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const diskFull = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

/** The real file system, but every write of a file's content fails halfway, as on a full disk: part of it is written. */
const failingWrites: AtomicWriteFileSystem = {
  ...nodeFs,
  open: (async (...args: Parameters<typeof nodeFs.open>) => {
    const handle = await nodeFs.open(...args);
    return Object.assign(handle, {
      writeFile: async (data: string | Uint8Array) => {
        await nodeFs.writeFile(String(args[0]), String(data).slice(0, 5));
        throw diskFull();
      },
    });
  }) as typeof nodeFs.open,
};

describe('writeFileAtomically', () => {
  it('replaces the file whole, and leaves nothing beside it', async () => {
    const file = join(directory, 'export.json');
    await writeFile(file, 'old');

    await writeFileAtomically(file, 'new content');

    expect(await readFile(file, 'utf8')).toBe('new content');
    expect(await readdir(directory)).toEqual(['export.json']);
  });

  it('leaves the old file whole when the write fails, removes its temporary file, and says so in one line', async () => {
    const file = join(directory, 'export.json');
    await writeFile(file, '[{"petId":1,"quantity":2,"status":"available"}]');

    const failure = await writeFileAtomically(file, 'x'.repeat(1_000), { fileSystem: failingWrites }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(AtomicWriteError);
    expect((failure as Error).message).toBe(`Could not write ${file} (ENOSPC): the file is unchanged, as it was before.`);
    expect(await readFile(file, 'utf8')).toBe('[{"petId":1,"quantity":2,"status":"available"}]');
    expect(await readdir(directory)).toEqual(['export.json']);
  });

  it('writes no file at all when there was none and the write fails', async () => {
    const file = join(directory, 'new.json');

    await expect(writeFileAtomically(file, 'text', { fileSystem: failingWrites })).rejects.toThrow(
      `Could not write ${file} (ENOSPC): no file was written.`,
    );
    expect(await readdir(directory)).toEqual([]);
  });

  it('leaves the old file whole when the rename fails', async () => {
    const file = join(directory, 'key');
    await writeFile(file, 'old');
    const failingRename: AtomicWriteFileSystem = {
      ...nodeFs,
      rename: async () => {
        throw Object.assign(new Error('EXDEV'), { code: 'EXDEV' });
      },
    };

    await expect(writeFileAtomically(file, 'new', { fileSystem: failingRename })).rejects.toThrow('(EXDEV): the file is unchanged');
    expect([await readFile(file, 'utf8'), await readdir(directory)]).toEqual(['old', ['key']]);
  });

  it('creates the file with the mode asked for', async () => {
    const file = join(directory, 'dev-api-key');

    await writeFileAtomically(file, 'secret\n', { mode: 0o600 });

    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});
