import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PUBLISHED_PAGES } from '../../../contract/published-contract.ts';

/** The README stands alone in a clone: every document it links to is in the repository, and so is every place they point at. */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const GUIDES = readdirSync(join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md') && name !== 'SPEC.md')
  .map((name) => `docs/${name}`);
const DOCUMENTS = ['README.md', 'CHANGELOG.md', 'client/README.md', ...GUIDES];
const README_MAX_LINES = 250;

function relativeLinks(document: string): string[] {
  const text = readFileSync(join(ROOT, document), 'utf8');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/.test(target));
}

/** The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  return new Set(
    [...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) =>
      match[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\- _]/gu, '')
        .replaceAll(' ', '-'),
    ),
  );
}

describe.each(DOCUMENTS)('%s', (document) => {
  it('links only to files inside the repository, each of which exists, and to headings each file has', () => {
    for (const target of relativeLinks(document)) {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path === '' ? join(ROOT, document) : normalize(join(dirname(join(ROOT, document)), path));
      expect(file.startsWith(ROOT), `${target} leaves the repository`).toBe(true);
      expect(existsSync(file), `${target} does not exist`).toBe(true);
      if (anchor !== undefined && file.endsWith('.md'))
        expect([...headingAnchors(file)], `${document} links to ${target}, a heading ${relative(ROOT, file)} does not have`).toContain(
          anchor,
        );
    }
  });
});

describe("the README, a newcomer's page", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

  it(`starts with the two commands and stays within ${README_MAX_LINES} lines`, () => {
    expect(readme.split('\n').slice(0, 6).join('\n')).toBe(
      '# Pet Store Inventory API\n\n```sh\nnpm ci && npm start\nnpm ci && npm test\n```',
    );
    expect(readme.split('\n').length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('links to every guide in docs/', () => {
    const linked = new Set(relativeLinks('README.md').map((target) => target.split('#')[0]));
    expect(GUIDES.filter((guide) => !linked.has(guide))).toEqual([]);
  });

  it('finds the anchors it checks (a rule that reads nothing would pass forever)', () => {
    expect(headingAnchors(join(ROOT, 'docs/api-guide.md'))).toContain('security-headers-and-cors');
    expect(relativeLinks('README.md').filter((target) => target.includes('#')).length).toBeGreaterThan(2);
  });
});

describe('the contract the README cites', () => {
  it('is in the repository, beside the design direction', () => {
    expect(readFileSync(join(ROOT, 'docs/SPEC.md'), 'utf8')).toMatch(/^# Pet Store Inventory Service Specification/);
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).not.toContain('../shared/');
  });
});

describe('the figures the guides state that the code can compute', () => {
  const guide = (name: string) => readFileSync(join(ROOT, 'docs', name), 'utf8');

  it("the reference page's size: the guide's figure is within 10% of the page rendered now", () => {
    const stated = /one HTML page of about\s+(\d+) KB/.exec(guide('published-contract.md'));
    expect(stated, 'the guide states the page size').not.toBeNull();
    const bytes = Buffer.byteLength(PUBLISHED_PAGES.apiReference.render({ serverUrl: 'http://localhost:3000/v1' }));
    expect(Math.abs(Number(stated![1]) * 1_000 - bytes) / bytes).toBeLessThan(0.1);
  });

  it("the smoke test's checks: the transcript shows one line per check and the count the tool prints", () => {
    const transcript = guide('deploying-and-operating.md');
    const lines = transcript.match(/^ {2}ok {4}.+$/gm) ?? [];
    const count = Number(/^All (\d+) checks passed/m.exec(transcript)?.[1]);
    // health, the listing, the refused write, then one per published page.
    expect(lines.length).toBe(3 + Object.keys(PUBLISHED_PAGES).length);
    expect(count).toBe(lines.length);
  });
});
