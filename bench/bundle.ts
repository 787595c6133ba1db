import { build } from 'esbuild';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ESBUILD_OPTIONS } from '../lib/bundling.ts';
import { apiRoutes, deployedLambdas, lambdaModuleFile, lambdaOf, type OperationId } from '../functions/routes.ts';

export interface LambdaBundle {
  /** The Lambda function's name (its module: lambdaModuleFile), or one of BASELINES. */
  name: string;
  /** The operation it serves; undefined for the authorizer and the baseline. */
  operationId?: OperationId;
  file: string;
  bytes: number;
  /** The source map beside it, which Node reads at load under --enable-source-maps. */
  mapBytes: number;
  /** Every source file the bundle holds (esbuild's metafile inputs), relative to the project. */
  modules: string[];
}

/**
 * The floors of the cold-start section: a function that constructs a document client and makes
 * one call; the same with one log line per invocation, by our logger and by Powertools'; and the
 * listing's floor, which makes the listing's store calls.
 */
export const BASELINES = {
  baseline: 'bench/cold-start/baseline-handler.ts',
  'listing baseline': 'bench/cold-start/listing-baseline-handler.ts',
  'baseline + our logger': 'bench/cold-start/our-logger-handler.ts',
  'baseline + Powertools Logger': 'bench/cold-start/powertools-logger-handler.ts',
} as const;

/** One function bundled as the CDK stack bundles the functions. */
export async function bundle(entryPoint: string, outDir: string, name: string): Promise<Omit<LambdaBundle, 'name' | 'operationId'>> {
  const file = join(outDir, `${name}.mjs`);
  const { banner, mainFields, ...options } = ESBUILD_OPTIONS;
  // The CDK stack's settings in esbuild's own terms (NodejsFunction passes the banner as --banner:js).
  const { metafile } = await build({
    ...options,
    mainFields: [...mainFields],
    banner: { js: banner },
    entryPoints: [entryPoint],
    outfile: file,
    logLevel: 'error',
    metafile: true,
  });
  return { file, bytes: (await stat(file)).size, mapBytes: (await stat(`${file}.map`)).size, modules: Object.keys(metafile.inputs) };
}

/** Every Lambda function of routes.ts (operations, then the authorizer, the health check and the background functions), bundled as the stack deploys them. */
export async function bundleLambdaFunctions(outDir: string): Promise<LambdaBundle[]> {
  const operationOfLambda = new Map(apiRoutes.map((route) => [lambdaOf(route.operationId), route.operationId]));
  const entries = deployedLambdas.map((name) => ({ name, operationId: operationOfLambda.get(name) }));
  const bundles: LambdaBundle[] = [];
  for (const entry of entries) bundles.push({ ...entry, ...(await bundle(lambdaModuleFile(entry.name), outDir, entry.name)) });
  return bundles;
}

/** The functions, then the baselines. */
export async function bundleLambdas(outDir: string): Promise<LambdaBundle[]> {
  const bundles = await bundleLambdaFunctions(outDir);
  for (const [name, entryPoint] of Object.entries(BASELINES))
    bundles.push({ name, ...(await bundle(entryPoint, outDir, name.replace(/\W+/g, '-'))) });
  return bundles;
}
