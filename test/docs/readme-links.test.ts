import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The README stands alone in a clone: every document it links to is in the repository. */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCUMENTS = ['README.md', 'CHANGELOG.md', 'client/README.md', 'docs/DESIGN.md'];

function relativeLinks(document: string): string[] {
  const text = readFileSync(join(ROOT, document), 'utf8');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith('#'));
}

describe.each(DOCUMENTS)('%s', (document) => {
  it('links only to files inside the repository, each of which exists', () => {
    for (const target of relativeLinks(document)) {
      const path = normalize(join(dirname(join(ROOT, document)), target.split('#')[0]!));
      expect(path.startsWith(ROOT), `${target} leaves the repository`).toBe(true);
      expect(existsSync(path), `${target} does not exist`).toBe(true);
    }
  });
});

describe('the contract the README cites', () => {
  it('is in the repository, beside the design direction', () => {
    expect(readFileSync(join(ROOT, 'docs/SPEC.md'), 'utf8')).toMatch(/^# Pet Store Inventory Service Specification/);
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).not.toContain('../shared/');
  });
});
