import fc from 'fast-check';
import { relative } from 'node:path';
import { expect, onTestFailed } from 'vitest';

/** `FC_SEED=… [FC_PATH=…] npx vitest run …` replays a red property run (docs/developing.md, Tests). */
const SEED_VARIABLE = 'FC_SEED';
const PATH_VARIABLE = 'FC_PATH';

/** A shell word that passes `text` through as it is. */
const shellQuoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
const regExpEscaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * fast-check's parameters for one property test, so that a red run can be replayed: the seed is
 * FC_SEED's (and the counterexample's path FC_PATH's) when set, else one drawn here, known before
 * the run starts. A failure's message ends with the command that replays exactly that
 * counterexample; a run the test's timeout cut short, of which fast-check reports nothing, prints
 * the command that replays the whole run. Call it inside the test.
 */
export function propertyRuns<Ts>(parameters: fc.Parameters<Ts> = {}): fc.Parameters<Ts> {
  const seedText = process.env[SEED_VARIABLE];
  const seed = seedText === undefined ? (Date.now() ^ (Math.random() * 0x1_0000_0000)) | 0 : Number(seedText);
  if (!Number.isSafeInteger(seed)) throw new Error(`${SEED_VARIABLE} must be an integer, not ${JSON.stringify(seedText)}.`);
  const path = process.env[PATH_VARIABLE];
  const { testPath, currentTestName } = expect.getState();
  const replay = (counterexamplePath?: string) =>
    [
      `${SEED_VARIABLE}=${seed}`,
      ...(counterexamplePath ? [`${PATH_VARIABLE}=${shellQuoted(counterexamplePath)}`] : []),
      'npx vitest run',
      relative(process.cwd(), testPath ?? ''),
      '-t',
      shellQuoted(`^${regExpEscaped(currentTestName ?? '')}$`),
    ].join(' ');
  let reported = false;
  onTestFailed(() => {
    if (!reported) console.error(`The property run did not finish (seed ${seed}); replay it with:\n  ${replay(path)}`);
  });
  return {
    ...parameters,
    seed,
    ...(path === undefined ? {} : { path }),
    reporter: (details) => {
      reported = true;
      if (!details.failed) return;
      throw new Error(
        `${fc.defaultReportMessage(details)}\n\nReplay this counterexample with:\n  ${replay(details.counterexamplePath ?? path)}`,
        {
          cause: details.errorInstance,
        },
      );
    },
  };
}
