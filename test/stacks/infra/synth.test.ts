import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinModules } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { ESBUILD_OPTIONS } from '../../../lib/bundling.ts';
import { temporaryDirectory } from '../../support/temporary-directories.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** The environment without AWS credentials or CDK settings, as in a fresh clone. */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_') && !name.startsWith('CDK_')));

/** `npm run --silent <script> -- <args>`: what it printed, stdout and stderr together, line by line, and its exit code. */
function npmRun(script: string, ...args: string[]): Promise<{ code: number; lines: string[] }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', script, '--', ...args], { cwd: PROJECT_ROOT, env: ENV }, (error, stdout, stderr) =>
      resolve({ code: typeof error?.code === 'number' ? error.code : 0, lines: `${stdout}${stderr}`.split('\n').filter(Boolean) }),
    );
  });
}

type SynthesizedTemplate = { Resources: Record<string, { Type: string; Properties: { Description?: string; Code?: { S3Key?: string } } }> };

/**
 * The one synth with bundling in npm test: every function of both stages through esbuild, by the
 * CLI as a developer runs it. Its output serves every test that reads the bundles or the
 * templates as written, cfn-lint's among them.
 */
let outdir: string;
let synthesized: { code: number; lines: string[] };
const templateOf = (stage: string): SynthesizedTemplate =>
  JSON.parse(readFileSync(join(outdir, `PetStoreInventory-${stage}.template.json`), 'utf8'));
const functionsOf = (template: SynthesizedTemplate) =>
  Object.values(template.Resources).filter((resource) => resource.Type === 'AWS::Lambda::Function');
const assetDirectoryOf = (fn: ReturnType<typeof functionsOf>[number]) =>
  join(outdir, `asset.${fn.Properties.Code!.S3Key!.replace(/\.zip$/, '')}`);

beforeAll(async () => {
  outdir = temporaryDirectory('petstore-synth-');
  synthesized = await npmRun('synth', '--output', outdir);
}, 300_000);

describe('npm run synth', () => {
  it('bundles every function and says in two lines where it wrote them, without a block per function', () => {
    expect(synthesized).toEqual({
      code: 0,
      lines: [
        `Successfully synthesized to ${outdir}`,
        'Supply a stack id (PetStoreInventory-Staging, PetStoreInventory-Prod) to display its template.',
      ],
    });
    const functions = functionsOf(templateOf('Staging'));
    expect(functions.length).toBeGreaterThan(0);
    for (const fn of functions) expect(readdirSync(assetDirectoryOf(fn))).toContain('index.mjs');
  });

  // The CLI runs the app as cdk.json says, in the environment of a fresh clone (no AWS_ or CDK_ variable).
  it('runs the app with no AWS credentials or environment, and writes both stages environment-agnostic, without findings', () => {
    const manifest = JSON.parse(readFileSync(join(outdir, 'manifest.json'), 'utf8'));
    const stacks = Object.entries(manifest.artifacts as Record<string, { type: string; environment: string }>).filter(
      ([, artifact]) => artifact.type === 'aws:cloudformation:stack',
    );
    expect(stacks.map(([id, artifact]) => [id, artifact.environment])).toEqual([
      ['PetStoreInventory-Staging', 'aws://unknown-account/unknown-region'],
      ['PetStoreInventory-Prod', 'aws://unknown-account/unknown-region'],
    ]);
    const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8'));
    expect(report.pluginReports).toEqual([]);
  });

  it.each(['Staging', 'Prod'])(
    "bundles each %s function by the project's esbuild options: minified ESM with the AWS SDK inside, a banner and a source map",
    (stage) => {
      const functions = functionsOf(templateOf(stage));
      expect(functions.length).toBeGreaterThan(0);
      for (const fn of functions) {
        const name = fn.Properties.Description;
        const bundle = readFileSync(join(assetDirectoryOf(fn), 'index.mjs'), 'utf8');
        expect(bundle.startsWith(ESBUILD_OPTIONS.banner), name).toBe(true);
        expect(bundle, name).toMatch(/export\s*\{[^}]*\bas handler\b[^}]*\};?\s*\n\/\/# sourceMappingURL=index\.mjs\.map\s*$/);
        // Only Node.js built-ins stay outside the bundle: the AWS SDK and every other package are inside it.
        // The bundle's import statements (`import{a as b}from"node:crypto";`, `import"x";`), not a `from"` inside its strings.
        const imported = [...bundle.matchAll(/(?:^|[;\n])\s*import\s*(?:[\w$*{}\s,]+?\s*from\s*)?"([^"]+)"/g)].map((match) =>
          match[1]!.replace(/^node:/, ''),
        );
        expect(imported.length, name).toBeGreaterThan(0);
        expect(
          imported.filter((specifier) => !builtinModules.includes(specifier)),
          name,
        ).toEqual([]);
        expect(bundle.length / bundle.split('\n').length, name).toBeGreaterThan(1_000);
        expect(JSON.parse(readFileSync(join(assetDirectoryOf(fn), 'index.mjs.map'), 'utf8')).version, name).toBe(3);
      }
    },
  );

  it('writes templates cfn-lint passes, warnings included (npm run cfn-lint)', async () => {
    const { code, lines } = await npmRun('cfn-lint', outdir);

    expect(code, lines.join('\n')).toBe(0);
    // Without cfn-lint (a Python tool) the script says so and passes, as it does for a developer, except under CI.
    expect(lines.at(-1)).toMatch(
      /^cfn-lint: PetStoreInventory-Prod\.template\.json, PetStoreInventory-Staging\.template\.json clean in |^cfn-lint is not installed/,
    );
  });

  it('still shows what an app that fails prints, and fails', async () => {
    const failingOutdir = temporaryDirectory('petstore-synth-');
    const failing = `sh -c 'echo "Bundling asset PetStoreInventory-Staging/Health/Function/Code/Stage..." >&2; echo "ERROR: esbuild could not resolve ./missing.ts" >&2; exit 3'`;

    const { code, lines } = await npmRun('synth', '--output', failingOutdir, '--app', failing);

    expect(code).not.toBe(0);
    expect(lines).toContain('ERROR: esbuild could not resolve ./missing.ts');
    expect(lines.filter((line) => line.startsWith('Bundling asset'))).toEqual([]);
  });
});
