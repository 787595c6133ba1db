/**
 * How every Lambda function is bundled: the CDK stack (NodejsFunction) and the cold-start
 * benchmark use these same esbuild settings, so what is measured is what is deployed.
 */
export const LAMBDA_NODE_TARGET = 'node24';

export const ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: LAMBDA_NODE_TARGET,
  format: 'esm',
  minify: true,
  sourcemap: true,
  // Stack traces need the mappings, not the sources: without them the maps Node parses at
  // cold start (NODE_OPTIONS=--enable-source-maps) are a fraction of the size.
  sourcesContent: false,
  // The AWS SDK is bundled (tree-shaken, pinned by our lockfile) rather than taken from the
  // runtime: a smaller module graph loads faster at cold start and the version is ours.
  external: [] as string[],
  mainFields: ['module', 'main'],
  // ESM bundles still meet CommonJS dependencies that call require(); give them one.
  banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  // Warnings and errors only: esbuild's command line (which NodejsFunction runs) would otherwise
  // print each bundle's files and time, four lines per function in every `npm run synth`.
  logLevel: 'warning',
} as const;
