import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { propertyRuns } from '../../support/property-runs.ts';

/** What every property test runs with (test/support/property-runs.ts): a red run names the command that replays it. */

/** A property false from 1000 on, whichever seed draws the integers. */
const belowAThousand = (seen: number[] = []) =>
  fc.property(fc.integer(), (value) => {
    seen.push(value);
    return value < 1000;
  });

function failureOf(run: () => void): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('the property held');
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('a property run', () => {
  it('ends its failure with the command that replays the counterexample: its seed, its path and this test', () => {
    vi.stubEnv('FC_SEED', undefined);
    vi.stubEnv('FC_PATH', undefined);
    const parameters = propertyRuns();

    const { message } = failureOf(() => fc.assert(belowAThousand(), parameters));

    expect(message).toContain('Counterexample: [1000]');
    expect(message).toMatch(
      new RegExp(
        `\\nReplay this counterexample with:\\n  FC_SEED=${parameters.seed} FC_PATH='[0-9:]+' npx vitest run test/fast/unit/property-runs\\.test\\.ts -t '\\^a property run > ends its failure .*\\$'$`,
      ),
    );
  });

  it('replays that counterexample first from FC_SEED and FC_PATH', () => {
    vi.stubEnv('FC_SEED', undefined);
    vi.stubEnv('FC_PATH', undefined);
    const { message } = failureOf(() => fc.assert(belowAThousand(), propertyRuns()));
    const [, seed, path] = /FC_SEED=(-?\d+) FC_PATH='([0-9:]+)'/.exec(message)!;
    vi.stubEnv('FC_SEED', seed);
    vi.stubEnv('FC_PATH', path);
    const seen: number[] = [];

    const replayed = propertyRuns();
    const failure = failureOf(() => fc.assert(belowAThousand(seen), replayed));

    expect([replayed.seed, replayed.path]).toEqual([Number(seed), path]);
    expect(seen[0]).toBe(1000);
    expect(failure.message).toContain('Counterexample: [1000]');
  });

  it('refuses an FC_SEED that is no integer', () => {
    vi.stubEnv('FC_SEED', 'yesterday');

    expect(() => propertyRuns()).toThrow('FC_SEED must be an integer, not "yesterday".');
  });
});
