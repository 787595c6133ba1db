import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../../tools/keys/cli-arguments.ts';
import { openInventoryTarget, runInventoryCommand, type InventoryTarget } from '../../../tools/inventory-tool/cli.ts';
import type { InventoryCount, InventoryItem } from '../../../functions/domain/schemas.ts';
import { startTestStore, type TestStore } from '../../support/local-store.ts';
import { putInventoryFixture, testAttribution } from '../../support/inventory.ts';

/** `npm run inventory` against a store: a whole file validated first, written once, read back the same. */

/** Many transactions' worth of pets (the import's rate at scale is bench section 5's). */
const MANY_PETS: InventoryCount[] = Array.from({ length: 2_500 }, (_, index) => ({
  // Every tenth id is above 2^53, where a double would round it.
  petId: index % 10 === 0 ? 9_007_199_254_740_993n + BigInt(index) : BigInt(index + 1),
  quantity: index % 97,
  status: (['available', 'pending', 'sold'] as const)[index % 3]!,
}));

const asFileText = (entries: readonly unknown[]) =>
  `[${entries.map((entry) => JSON.stringify(entry, (_key, value: unknown) => (typeof value === 'bigint' ? JSON.rawJSON(String(value)) : value))).join(',')}]`;

let store: TestStore;
let directory: string;
let printed: string[];
let progress: [number, number][];
let written: string;

async function inventory(...argv: string[]): Promise<void> {
  const target = async (): Promise<InventoryTarget> => ({
    inventory: store.dependencies.inventory,
    thresholds: store.dependencies.thresholds,
    describe: 'test store',
    close: async () => undefined,
  });
  await runInventoryCommand(argv, target, {
    print: (line) => printed.push(line),
    progress: (done, total) => progress.push([done, total]),
    write: (text) => (written += text),
  });
}

/** An entry as the store answers it when no reservation holds any of it. */
const unheld = (count: InventoryCount): InventoryItem => ({ ...count, reserved: 0, available: count.quantity });

async function stored(): Promise<InventoryItem[]> {
  const items: InventoryItem[] = [];
  for await (const batch of store.dependencies.inventory.listAll()) items.push(...batch);
  return items;
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'inventory-tool-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});
beforeEach(async () => {
  await store?.close();
  store = await startTestStore();
  printed = [];
  progress = [];
  written = '';
});

describe('npm run inventory', () => {
  it('imports 2,500 pets, exports the same file, and a re-import changes nothing', async () => {
    const file = join(directory, 'many-pets.json');
    await writeFile(file, asFileText(MANY_PETS));

    await inventory('import', '--file', file);
    const exported = join(directory, 'exported.json');
    await inventory('export', '--file', exported);
    await inventory('import', '--file', exported);

    expect(printed).toEqual([
      `Imported ${file} into the test store: 2500 entries, 2500 new, 0 changed, 0 unchanged.`,
      `Exported 2500 entries from the test store to ${exported}.`,
      `Imported ${exported} into the test store: 2500 entries, 0 new, 0 changed, 2500 unchanged.`,
    ]);
    expect(progress.at(-1)).toEqual([2_500, 2_500]);
    expect(progress).toHaveLength(5);
    // The export carries each entry as answered, its holds beside its count; a re-import of them changes nothing.
    const sorted = [...MANY_PETS].sort((a, b) => (a.petId < b.petId ? -1 : 1)).map(unheld);
    expect(await readFile(exported, 'utf8')).toBe(`[\n${sorted.map((item) => `  ${asFileText([item]).slice(1, -1)}`).join(',\n')}\n]\n`);
    expect(await stored()).toEqual(sorted);
  }, 120_000);

  it('writes only what differs, and keeps entries the file does not list', async () => {
    // Pet 1's file entry holds 3 that the store does not: holds are not imported, so it is unchanged.
    const file = join(directory, 'small.json');
    await store.dependencies.inventory.putMany(
      [
        { petId: 1n, quantity: 5, status: 'available' },
        { petId: 2n, quantity: 1, status: 'pending' },
        { petId: 3n, quantity: 9, status: 'sold' },
      ],
      testAttribution('seed'),
    );
    await writeFile(
      file,
      '[{"petId":1,"quantity":5,"status":"available","reserved":3,"available":2},{"petId":2,"quantity":0,"status":"sold"},{"petId":9223372036854775807,"quantity":1,"status":"pending"}]',
    );

    await inventory('import', '--file', file);

    expect(printed).toEqual([`Imported ${file} into the test store: 3 entries, 1 new, 1 changed, 1 unchanged.`]);
    expect(await stored()).toEqual([
      { petId: 1n, quantity: 5, status: 'available', reserved: 0, available: 5 },
      { petId: 2n, quantity: 0, status: 'sold', reserved: 0, available: 0 },
      { petId: 3n, quantity: 9, status: 'sold', reserved: 0, available: 9 },
      { petId: 9_223_372_036_854_775_807n, quantity: 1, status: 'pending', reserved: 0, available: 1 },
    ]);
  });

  it('sets the low-stock thresholds the file carries, exports them beside the counts, and leaves a threshold the file does not name', async () => {
    const file = join(directory, 'thresholds.json');
    await store.dependencies.inventory.putMany([{ petId: 3n, quantity: 9, status: 'available' }], testAttribution('seed'));
    await store.dependencies.thresholds.set(3n, 4);
    await writeFile(
      file,
      '[{"petId":1,"quantity":5,"status":"available","lowStockThreshold":6},{"petId":9223372036854775807,"quantity":1,"status":"pending","lowStockThreshold":0}]',
    );

    await inventory('import', '--file', file);
    await inventory('import', '--file', file);
    await inventory('export');

    expect(printed).toEqual([
      `Imported ${file} into the test store: 2 entries, 2 new, 0 changed, 0 unchanged; 2 low-stock thresholds set.`,
      `Imported ${file} into the test store: 2 entries, 0 new, 0 changed, 2 unchanged.`,
    ]);
    expect(written).toBe(
      [
        '[',
        '  {"petId":1,"quantity":5,"status":"available","reserved":0,"available":5,"lowStockThreshold":6},',
        '  {"petId":3,"quantity":9,"status":"available","reserved":0,"available":9,"lowStockThreshold":4},',
        '  {"petId":9223372036854775807,"quantity":1,"status":"pending","reserved":0,"available":1,"lowStockThreshold":0}',
        ']',
        '',
      ].join('\n'),
    );
    expect(await store.dependencies.thresholds.get(9_223_372_036_854_775_807n)).toEqual({ threshold: 0 });
  });

  it('refuses a file with three bad entries whole, one line each, and writes nothing', async () => {
    const file = join(directory, 'three-bad.json');
    await writeFile(
      file,
      `[{"petId":1,"quantity":2,"status":"available"},
        {"petId":2,"quantity":-1,"status":"available","lowStockThreshold":-2},
        {"petId":3,"quantity":1,"status":"lost","colour":"brown"},
        {"petId":1,"quantity":4,"status":"sold"},
        {"petId":4,"quantity":0,"status":"pending"}]`,
    );

    const refusal = inventory('import', '--file', file);

    await expect(refusal).rejects.toThrow(
      [
        'entry 2 (petId 2): quantity must be an integer from 0 to 2147483647 (got -1); lowStockThreshold must be an integer from 0 to 2147483647 (got -2)',
        'entry 3 (petId 3): status must be one of available, pending, sold (got "lost"); unknown field "colour"',
        'entry 4 (petId 1): petId 1 is listed twice (first at entry 1)',
        `${file}: 3 bad entries; nothing was written.`,
      ].join('\n'),
    );
    expect(await stored()).toEqual([]);
  });

  it.each([
    ['is not an array', '{"petId":1}', (file: string) => `${file} must hold a JSON array of {"petId", "quantity", "status"}`],
    [
      'is not JSON',
      '[\n  {"petId":1,"quantity":2,"status":"sold"},\n]',
      (file: string) => `${file} is not valid JSON: unexpected "]" at line 3, column 1.`,
    ],
    [
      'holds no valid entry',
      '[7, {"petId":"12","quantity":1.5}, {"petId":0,"quantity":1,"status":"sold"}]',
      () =>
        'entry 1: must be an object {"petId", "quantity", "status"}\nentry 2: petId must be an integer from 1 to 9223372036854775807 (got "12"); quantity must be an integer from 0 to 2147483647 (got 1.5); status must be one of available, pending, sold (missing)\nentry 3 (petId 0): petId must be an integer from 1 to 9223372036854775807 (got 0)',
    ],
    [
      'names a field twice',
      '[{"petId":102,"petId":103,"quantity":1,"status":"sold"}]',
      (file: string) => `entry 1: petId occurs more than once in one object\n${file}: 1 bad entry; nothing was written.`,
    ],
    [
      'writes integers inexactly',
      '[{"petId":1e3,"quantity":1,"status":"sold"},{"petId":2,"quantity":-0,"status":"sold"},{"petId":3,"quantity":1.0000000000000001,"status":"sold"}]',
      () =>
        'entry 1: petId 1e3 is not written as an integer (digits only: no fraction, exponent or -0); it would be read as 1000\nentry 2: quantity is written -0; write 0\nentry 3: quantity 1.0000000000000001 is not written as an integer (digits only: no fraction, exponent or -0); it would be read as 1',
    ],
    [
      'is nested 100,000 deep',
      `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      (file: string) => `${file} is nested more than 64 levels deep: an inventory file is an array of flat objects.`,
    ],
    [
      'holds a 5,000-digit id and a 20 MB value',
      `[{"petId":${'9'.repeat(5_000)},"quantity":1,"status":"sold"},{"petId":2,"quantity":1,"status":"${'x'.repeat(20_000_000)}"}]`,
      () =>
        `entry 1 (petId 9999999999999999999999999999999999999999… (5000 characters)): petId must be an integer from 1 to 9223372036854775807 (got 9999999999999999999999999999999999999999… (5000 characters))\nentry 2 (petId 2): status must be one of available, pending, sold (got "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… (20000002 characters))`,
    ],
  ])('refuses a file that %s, in plain words', async (_what, text, message) => {
    const file = join(directory, 'refused.json');
    await writeFile(file, text);

    await expect(inventory('import', '--file', file)).rejects.toThrow(message(file));
    expect(await stored()).toEqual([]);
  });

  it('exports to standard output when no --file is given, ids exact', async () => {
    await store.dependencies.inventory.putMany(
      [{ petId: 9_007_199_254_740_993n, quantity: 2, status: 'available' }],
      testAttribution('seed'),
    );

    await inventory('export');

    expect(written).toBe('[\n  {"petId":9007199254740993,"quantity":2,"status":"available","reserved":0,"available":2}\n]\n');
  });

  it.each([
    [['import'], 'import needs --file <items.json>: a JSON array of {"petId", "quantity", "status"}.'],
    [['import', 'items.json'], 'import takes no argument "items.json"; name the file with --file <path>.'],
    [['upload', '--file', 'x.json'], 'The command must be one of import, export (got "upload").'],
    [['export', '--stage', 'qa'], '--stage must be one of staging, prod (got "qa").'],
    [['export', '--format', 'csv'], "Unknown option '--format'; see npm run inventory -- --help."],
  ])('refuses %j before opening any store, in one line', async (argv, message) => {
    const opened = vi.fn();

    await expect(runInventoryCommand(argv, opened, { print: () => undefined, write: () => undefined })).rejects.toThrow(
      new UsageError(message),
    );
    expect(opened).not.toHaveBeenCalled();
  });

  it("works on a fresh clone's local store, whose data directory does not exist yet", async () => {
    const dataDir = join(directory, 'fresh-clone', '.data');
    const file = join(directory, 'fresh.json');
    await writeFile(file, '[{"petId":9007199254740993,"quantity":4,"status":"pending"}]');

    await runInventoryCommand(['import', '--file', file, '--data-dir', dataDir], openInventoryTarget, {
      print: (line) => printed.push(line),
      write: () => undefined,
    });
    await runInventoryCommand(['export', '--data-dir', dataDir], openInventoryTarget, {
      print: (line) => printed.push(line),
      write: (text) => (written += text),
    });

    expect(printed).toEqual([`Imported ${file} into the local store in ${dataDir}: 1 entry, 1 new, 0 changed, 0 unchanged.`]);
    expect(written).toBe('[\n  {"petId":9007199254740993,"quantity":4,"status":"pending","reserved":0,"available":4}\n]\n');
  }, 60_000);
});

/** A 64 KiB tmpfs: the machine's own disk is never filled. Mounting needs root or CAP_SYS_ADMIN; elsewhere the test is skipped. */
function mountSmallFileSystem(path: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', path], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('npm run inventory -- export on a full file system', async () => {
  const mountPoint = await mkdtemp(join(tmpdir(), 'inventory-full-disk-'));
  const mounted = mountSmallFileSystem(mountPoint);
  afterAll(async () => {
    if (mounted) execFileSync('umount', [mountPoint]);
    await rm(mountPoint, { recursive: true, force: true });
  });

  it.skipIf(!mounted)(
    'leaves the previous export whole and says so in one line, when the new one does not fit',
    async () => {
      const file = join(mountPoint, 'exports', 'inventory.json');
      await mkdir(join(mountPoint, 'exports'));
      const previous = '[\n  {"petId":1,"quantity":2,"status":"available"}\n]\n';
      await writeFile(file, previous);
      // About 100 KB of entries: more than the file system holds.
      await putInventoryFixture(store.dependencies.client, store.tables.inventoryTable, MANY_PETS.slice(0, 2_000));

      const failure = await inventory('export', '--file', file).then(
        () => undefined,
        (error: unknown) => error,
      );

      expect(String((failure as Error | undefined)?.message)).toBe(
        `Could not write ${file} (ENOSPC): the file is unchanged, as it was before.`,
      );
      expect(await readFile(file, 'utf8')).toBe(previous);
      expect(await readdir(join(mountPoint, 'exports'))).toEqual(['inventory.json']);
    },
    120_000,
  );
});
