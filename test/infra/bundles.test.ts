import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntryPoints, type LambdaBundle } from '../../bench/bundle.ts';

let outDir: string;
let bundles: LambdaBundle[];

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'petstore-bundles-'));
  bundles = await bundleEntryPoints(outDir);
});

afterAll(() => rm(outDir, { recursive: true, force: true }));

/** Packages whose place is the build, not a Lambda function: zod and Ajv weigh on every cold start. */
const BUILD_TIME_ONLY = ['zod', 'ajv', 'ajv-formats', 'ajv-errors', 'ajv-keywords', 'ajv-ftl-i18n', '@middy/validator/transpile'];

const packagesIn = (bundle: LambdaBundle) =>
  bundle.modules.filter((module) =>
    BUILD_TIME_ONLY.some((name) => module.includes(`node_modules/${name}/`) || module.endsWith(`node_modules/${name}.js`)),
  );

describe('the Lambda bundles, as lib/bundling.ts builds them', () => {
  it('hold neither zod nor a schema compiler: bodies are checked by the precompiled validators', () => {
    expect(bundles.map((bundle) => [bundle.name, packagesIn(bundle)])).toEqual(bundles.map((bundle) => [bundle.name, []]));
  });

  it('validate bodies with @middy/validator and the generated code', () => {
    const update = bundles.find((bundle) => bundle.operationId === 'updateInventory')!;

    expect(update.modules).toEqual(
      expect.arrayContaining(['node_modules/@middy/validator/index.js', 'functions/http/request-body-validators.generated.ts']),
    );
  });
});
