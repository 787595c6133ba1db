/**
 * `npm run test:lambda-runtime`: the synthesized functions under AWS's runtime client
 * (docs/lambda-runtime.md). Installs the runtime client (built once per version and Node ABI,
 * see lambda-runtime-install.ts), synthesizes the template, and runs test/lambda-runtime.
 *
 * Where the client's native addon cannot be built (no compiler, cmake, or not Linux), it says so
 * in one line and skips, with exit 0; under CI (CI=true) that is a failure, since CI must run it.
 */
import { execFileSync } from 'node:child_process';
import { buildKey, installLambdaRuntime, missingPrerequisite } from './lambda-runtime-install.ts';

const missing = missingPrerequisite();
if (missing) {
  const why = `aws-lambda-ric cannot be built here: ${missing} (it needs Linux, make, a C/C++ compiler, cmake and python3).`;
  if (process.env.CI === 'true') {
    console.error(`test:lambda-runtime failed: ${why} CI must run it.`);
    process.exit(1);
  }
  console.error(`test:lambda-runtime skipped: ${why}`);
  process.exit(0);
}

/** Runs a step and says how long it took; a failed command ends the run with its exit status, its output already shown. */
function timed(step: string, run: () => string | undefined): void {
  const started = performance.now();
  let outcome: string | undefined;
  try {
    outcome = run();
  } catch (error) {
    const { status } = error as { status?: number | null };
    if (typeof status !== 'number') throw error;
    process.exit(status);
  }
  console.log(`test:lambda-runtime: ${step}${outcome ? ` (${outcome})` : ''} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const command = (program: string, args: string[]) => () => {
  execFileSync(program, args, { stdio: 'inherit' });
  return undefined;
};

timed('aws-lambda-ric', () => `${installLambdaRuntime()}, ${buildKey()}`);
timed('cdk synth', command('npx', ['cdk', 'synth', '--quiet']));
timed('the functions under the runtime client', command('npx', ['vitest', 'run', '--config', 'test/lambda-runtime/vitest.config.ts']));
