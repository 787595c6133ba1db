import { build } from 'esbuild';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ESBUILD_OPTIONS } from '../lib/bundling.ts';
import { apiRoutes, authorizerEntry } from '../functions/routes.ts';

export interface LambdaBundle {
  /** The entry's name in routes.ts (its file in functions/), or one of BASELINES. */
  name: string;
  /** The operation it serves; undefined for the authorizer and the baseline. */
  operationId?: string;
  file: string;
  bytes: number;
  /** The source map beside it, which Node reads at load under --enable-source-maps. */
  mapBytes: number;
}

/**
 * The floor of the cold-start section (a function that constructs a document client and makes
 * one call), and the same with zod, which tells how much of the gap zod's import explains.
 */
export const BASELINES = {
  baseline: 'bench/cold-start/baseline-handler.ts',
  'baseline + zod': 'bench/cold-start/baseline-with-zod-handler.ts',
} as const;

/** One entry point bundled as the CDK stack bundles the functions. */
export async function bundle(entryPoint: string, outDir: string, name: string): Promise<{ file: string; bytes: number; mapBytes: number }> {
  const file = join(outDir, `${name}.mjs`);
  const { banner, mainFields, ...options } = ESBUILD_OPTIONS;
  // The CDK stack's settings in esbuild's own terms (NodejsFunction passes the banner as --banner:js).
  await build({ ...options, mainFields: [...mainFields], banner: { js: banner }, entryPoints: [entryPoint], outfile: file, logLevel: 'error' });
  return { file, bytes: (await stat(file)).size, mapBytes: (await stat(`${file}.map`)).size };
}

/** Every Lambda entry point of routes.ts (operations, then the authorizer), then the baselines. */
export async function bundleLambdas(outDir: string): Promise<LambdaBundle[]> {
  const entries = [...apiRoutes.map((route) => ({ name: route.entry, operationId: route.operationId })), { name: authorizerEntry }];
  const bundles: LambdaBundle[] = [];
  for (const entry of entries) bundles.push({ ...entry, ...(await bundle(`functions/${entry.name}.ts`, outDir, entry.name)) });
  for (const [name, entryPoint] of Object.entries(BASELINES)) bundles.push({ name, ...(await bundle(entryPoint, outDir, name.replace(/\W+/g, '-'))) });
  return bundles;
}
