import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createDependencies } from '../../functions/dependencies.ts';
import { DEFAULT_BAN_POLICY } from '../../functions/domain/usage-limits.ts';
import { createHttpHandlers } from '../../functions/handlers/http-handlers.ts';
import type { HttpHandler, StreamedHttpHandler } from '../../functions/http/http-handler.ts';
import { LOCAL_TABLES } from '../../functions/local/local-store.ts';
import { apiRoutes, type OperationId } from '../../functions/routes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FUNCTIONS = join(ROOT, 'functions');
const DOMAIN = join(FUNCTIONS, 'domain');
const LIB = join(ROOT, 'lib');

/** What domain code may not know: AWS (SDK, Lambda event types, CDK), HTTP servers and clients, Middy. */
const FORBIDDEN_IN_DOMAIN = [
  /^@aws-sdk\//,
  /^@smithy\//,
  /^aws-lambda$/,
  /^@types\/aws-lambda$/,
  /^aws-cdk-lib/,
  /^@middy\//,
  /^(node:)?https?$/,
  /^(node:)?http2$/,
];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|mjs)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

interface Import {
  file: string;
  specifier: string;
  /** The absolute path a relative specifier points at; undefined for a package. */
  target: string | undefined;
}

/** Every module a file imports or re-exports, static or dynamic, as the TypeScript compiler reads them. */
function importsOf(file: string): Import[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.map(({ fileName: specifier }) => ({
    file: relative(ROOT, file),
    specifier,
    target: specifier.startsWith('.') ? resolve(dirname(file), specifier) : undefined,
  }));
}

const isInside = (path: string, folder: string) => path === folder || path.startsWith(`${folder}${sep}`);
const describeImport = ({ file, specifier }: Import) => `${file} imports ${specifier}`;

describe('layering', () => {
  it('runtime code (functions/) never imports the infrastructure folder (lib/)', () => {
    const offending = sourceFiles(FUNCTIONS)
      .flatMap(importsOf)
      .filter((found) => found.target !== undefined && isInside(found.target, LIB));
    expect(offending.map(describeImport)).toEqual([]);
  });

  it('domain code (functions/domain/) imports no AWS, HTTP or Middy code', () => {
    const offending = sourceFiles(DOMAIN)
      .flatMap(importsOf)
      .filter((found) => FORBIDDEN_IN_DOMAIN.some((pattern) => pattern.test(found.specifier)));
    expect(offending.map(describeImport)).toEqual([]);
  });

  it('domain code imports only domain code of this repository (no adapters, handlers, HTTP middlewares or local server)', () => {
    const offending = sourceFiles(DOMAIN)
      .flatMap(importsOf)
      .filter((found) => found.target !== undefined && !isInside(found.target, DOMAIN));
    expect(offending.map(describeImport)).toEqual([]);
  });

  it('finds the imports it checks (a rule that reads nothing would pass forever)', () => {
    expect(sourceFiles(DOMAIN).length).toBeGreaterThan(5);
    expect(importsOf(join(DOMAIN, 'usage-limits.ts')).map((found) => found.specifier)).toEqual(['./errors.ts', './plans.ts']);
    expect(importsOf(join(FUNCTIONS, 'keys', 'key-targets.ts')).some((found) => found.target === join(FUNCTIONS, 'deployments.ts'))).toBe(
      true,
    );
  });
});

describe('every route has its handler', () => {
  it('is a compile-time rule: the handlers are a table keyed by every OperationId', () => {
    expectTypeOf(createHttpHandlers).returns.toEqualTypeOf<Record<OperationId, HttpHandler | StreamedHttpHandler>>();
  });

  it('serves every route of routes.ts in one process, and nothing else', () => {
    const dependencies = createDependencies({ ...LOCAL_TABLES, dynamodbEndpoint: 'http://127.0.0.1:1', banPolicy: DEFAULT_BAN_POLICY });
    try {
      const handlers = createHttpHandlers(dependencies);
      expect(Object.keys(handlers).sort()).toEqual(apiRoutes.map((route) => route.operationId).sort());
      expect(Object.values(handlers).every((handler) => typeof handler === 'function')).toBe(true);
    } finally {
      dependencies.close();
    }
  });

  it.each(apiRoutes.map((route) => [route.operationId, route.entry] as const))(
    '%s has a Lambda entry point, functions/%s.ts, exporting handler',
    (_id, entry) => {
      const source = readFileSync(join(FUNCTIONS, `${entry}.ts`), 'utf8');
      expect(source).toMatch(/^export const handler = /m);
    },
  );
});
