/**
 * `npm run cfn-lint`: AWS's CloudFormation linter on every stage's synthesized template, in
 * cdk.out (run after `npm run synth`) or in the cloud assembly named after `--` (`npm run cfn-lint
 * -- <dir>`, as npm test's synth test does on its own output). Zero errors and zero warnings; a warning we accept is ignored by rule id
 * on the resource it concerns, with the reason beside it (lib/service-function.ts).
 *
 * Without cfn-lint (a Python tool) it says so in one line and how to install it, and passes,
 * except under CI (CI=true), which must run it.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cloudAssembly = process.argv[2] ?? fileURLToPath(new URL('../cdk.out/', import.meta.url));

if (spawnSync('cfn-lint', ['--version']).error) {
  console.error('cfn-lint is not installed, so the templates were not linted: pip install cfn-lint');
  process.exit(process.env.CI === 'true' ? 1 : 0);
}

const templates = readdirSync(cloudAssembly)
  .filter((name) => name.endsWith('.template.json'))
  .map((name) => path.join(cloudAssembly, name));
if (templates.length === 0) {
  console.error(`No template in ${cloudAssembly}: run npm run synth first.`);
  process.exit(1);
}

const started = performance.now();
const lint = spawnSync('cfn-lint', ['--', ...templates], { stdio: 'inherit' });
if (lint.status !== 0) process.exit(lint.status ?? 1);
console.log(
  `cfn-lint: ${templates.map((template) => path.basename(template)).join(', ')} clean in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
