/**
 * `npm run synth`: `cdk synth --quiet`, and the arguments given after `--`. CDK writes
 * "Bundling asset <path>..." for each function it bundles, whatever --quiet says (thirteen lines
 * in a fresh clone, in every `npm test`); those lines alone are left out. Everything else the
 * CLI, the app and esbuild print is passed on as it comes, errors and warnings first of all,
 * and the exit code is cdk's.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** The line CDK's asset staging writes before each bundling (aws-cdk-lib/core/lib/asset-staging.js). */
const BUNDLING_PROGRESS = /^Bundling asset \S+\.\.\.$/;

const cdk = spawn('npx', ['cdk', 'synth', '--quiet', ...process.argv.slice(2)], { stdio: ['inherit', 'inherit', 'pipe'] });
createInterface({ input: cdk.stderr }).on('line', (line) => {
  if (!BUNDLING_PROGRESS.test(line)) process.stderr.write(`${line}\n`);
});
cdk.on('close', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
