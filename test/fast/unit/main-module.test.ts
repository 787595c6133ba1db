import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A script that runs its work when Node runs it asks tools/main-module.ts's isMainModule
 * (test/process/e2e/main-module.test.ts runs the tools from a path with a space and through
 * a symbolic link). A script that compares import.meta.url or process.argv[1] itself does nothing
 * there and exits 0: a space is %20 in a URL, and argv[1] keeps the link Node resolved.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SCRIPT_FOLDERS = ['bench', 'bin', 'lib', 'local', 'scripts', 'tools'];
const MAIN_MODULE = join(ROOT, 'tools', 'main-module.ts');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const scripts = SCRIPT_FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder))).filter((file) => file !== MAIN_MODULE);

describe('a script run by Node', () => {
  it('asks isMainModule whether it was run, and compares no import.meta.url or process.argv[1] of its own', () => {
    const comparing = scripts.filter((file) => /process\.argv\[1\]/.test(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file));

    expect(comparing).toEqual([]);
  });

  it('finds the scripts that ask (a rule that reads nothing would pass forever)', () => {
    const asking = scripts.filter((file) => readFileSync(file, 'utf8').includes('isMainModule(import.meta.url)'));

    expect(asking.map((file) => relative(ROOT, file)).sort()).toEqual(
      expect.arrayContaining(['tools/keys/cli.ts', 'tools/smoke/smoke-test.ts']),
    );
  });
});
