import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSeedFile } from '../../../local/seed.ts';

describe('readSeedFile', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'seed-file-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });
  const seedFile = async (name: string, text: string) => {
    const file = join(directory, name);
    await writeFile(file, text);
    return file;
  };

  it('keeps every digit of ids above 2^53, after a byte order mark', async () => {
    const file = await seedFile('big.json', '\ufeff[{"petId": 9007199254740993, "quantity": 2, "status": "available"}]');
    expect(await readSeedFile(file)).toEqual([{ petId: 9_007_199_254_740_993n, quantity: 2, status: 'available' }]);
  });

  it('names the variable and the file when the file is missing', async () => {
    const file = join(directory, 'missing.json');
    await expect(readSeedFile(file)).rejects.toThrow(`SEED_FILE=${file} cannot be used: ${file} does not exist.`);
  });

  it.each([
    ['not an array', '{"petId": 1}', (file: string) => `SEED_FILE=${file} cannot be used: ${file} must hold a JSON array`],
    [
      'a field twice',
      '[{"petId": 102, "petId": 103, "quantity": 2, "status": "available"}]',
      (file: string) => `SEED_FILE=${file} cannot be used: entry 1: petId occurs more than once in one object\n${file}: 1 bad entry`,
    ],
    [
      'a repeated id',
      '[{"petId": 1, "quantity": 2, "status": "sold"}, {"petId": 1, "quantity": 3, "status": "sold"}]',
      () => 'entry 2 (petId 1): petId 1 is listed twice (first at entry 1)',
    ],
    [
      'an unknown status',
      '[{"petId": 1, "quantity": 2, "status": "lost"}]',
      () => 'status must be one of available, pending, sold (got "lost")',
    ],
  ])('refuses %s, naming the variable, the file and the entry', async (_case, text, message) => {
    const file = await seedFile('bad.json', text);
    await expect(readSeedFile(file)).rejects.toThrow(message(file));
  });

  it.each([
    ['a trailing comma', '[\n  {"petId": 1, "quantity": 2, "status": "sold"},\n]\n', 'unexpected "]" at line 3, column 1.'],
    ['a missing comma', '[\n  {"petId": 1, "quantity": 2, "status": "sold"}\n  {"petId": 2}\n]', 'unexpected "{" at line 3, column 3.'],
    ['a word', 'nope\nmore', 'unexpected "o" at line 1, column 2.'],
    ['a cut file', '[{"petId": 1,', 'the text ends at line 1, column 14, before the JSON is complete.'],
    ['a line break in a string', '[{"petId": 1, "status": "so\nld"}]', 'unexpected "\\n" at line 1, column 28.'],
  ])('refuses a file that is not JSON (%s) in one line that says where, without the text', async (_case, text, where) => {
    const file = await seedFile('not-json.json', text);

    const refusal = await readSeedFile(file).catch((error: Error) => error.message);

    expect(refusal).toBe(`SEED_FILE=${file} cannot be used: ${file} is not valid JSON: ${where}`);
  });
});
