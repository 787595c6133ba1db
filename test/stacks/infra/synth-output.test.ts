import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const PROJECT_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** The environment without AWS credentials or CDK settings, as in a fresh clone. */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_') && !name.startsWith('CDK_')));

const outdirs: string[] = [];
afterAll(() => {
  for (const outdir of outdirs.splice(0)) rmSync(outdir, { recursive: true, force: true });
});

/** A cloud assembly directory of its own, removed after the file. */
function temporaryDirectory(prefix: string): string {
  const outdir = mkdtempSync(join(tmpdir(), prefix));
  outdirs.push(outdir);
  return outdir;
}

/** `npm run --silent synth -- <args>`: what it printed, stdout and stderr together, line by line, and its exit code. */
function synth(...args: string[]): Promise<{ code: number; lines: string[] }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'synth', '--', ...args], { cwd: PROJECT_ROOT, env: ENV }, (error, stdout, stderr) =>
      resolve({ code: typeof error?.code === 'number' ? error.code : 0, lines: `${stdout}${stderr}`.split('\n').filter(Boolean) }),
    );
  });
}

describe('npm run synth', () => {
  // The one synth with bundling in vitest (npm test's own runs before it): every function through esbuild.
  it('bundles every function and says in two lines where it wrote them, without a block per function', async () => {
    const outdir = temporaryDirectory('petstore-synth-');

    const { code, lines } = await synth('--output', outdir);

    expect({ code, lines }).toEqual({
      code: 0,
      lines: [
        `Successfully synthesized to ${outdir}`,
        'Supply a stack id (PetStoreInventory-Staging, PetStoreInventory-Prod) to display its template.',
      ],
    });
    const template = JSON.parse(readFileSync(join(outdir, 'PetStoreInventory-Staging.template.json'), 'utf8')) as {
      Resources: Record<string, { Type: string; Properties: { Code?: { S3Key?: string } } }>;
    };
    const functions = Object.values(template.Resources).filter((resource) => resource.Type === 'AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThan(0);
    for (const { Properties } of functions)
      expect(readdirSync(join(outdir, `asset.${Properties.Code!.S3Key!.replace(/\.zip$/, '')}`))).toContain('index.mjs');
  }, 300_000);

  it('still shows what an app that fails prints, and fails', async () => {
    const outdir = temporaryDirectory('petstore-synth-');
    const failing = `sh -c 'echo "Bundling asset PetStoreInventory-Staging/Health/Function/Code/Stage..." >&2; echo "ERROR: esbuild could not resolve ./missing.ts" >&2; exit 3'`;

    const { code, lines } = await synth('--output', outdir, '--app', failing);

    expect(code).not.toBe(0);
    expect(lines).toContain('ERROR: esbuild could not resolve ./missing.ts');
    expect(lines.filter((line) => line.startsWith('Bundling asset'))).toEqual([]);
  });
});
