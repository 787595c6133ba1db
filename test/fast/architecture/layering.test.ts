import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ApiError } from '../../../functions/domain/errors.ts';
import { createDependencies } from '../../../local/service-dependencies.ts';
import { DEFAULT_BAN_POLICY } from '../../../functions/domain/plan-limiter.ts';
import { createOperationHandlers } from '../../../local/operation-handlers.ts';
import type { HttpHandler, StreamedHttpHandler } from '../../../functions/http/http-handler.ts';
import { LOCAL_TABLES } from '../../../local/local-store.ts';
import { apiRoutes, deployedLambdas, lambdaModuleFile, type OperationId, operationModuleFile } from '../../../functions/routes.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FUNCTIONS = join(ROOT, 'functions');
const DOMAIN = join(FUNCTIONS, 'domain');
const OPERATION_REGISTRY = join(FUNCTIONS, 'routes.ts');

const LAMBDA_MODULES = deployedLambdas.map((lambda) => join(ROOT, lambdaModuleFile(lambda)));

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

const ADAPTERS = join(FUNCTIONS, 'adapters');
/** What serves a request or a record: the operations' definitions and the other functions' handlers. */
const HANDLERS = [join(FUNCTIONS, 'handlers'), join(FUNCTIONS, 'operations')];
const AWS_SDK = [/^@aws-sdk\//, /^@smithy\//];

/** A handler's import of an adapter or of the AWS SDK. */
const breaksHandlerRule = (found: Import) =>
  HANDLERS.some((folder) => isInside(join(ROOT, found.file), folder)) &&
  ((found.target !== undefined && isInside(found.target, ADAPTERS)) || AWS_SDK.some((pattern) => pattern.test(found.specifier)));

/** An adapter's import of the service's configuration or of a part. */
const breaksAdapterRule = (found: Import) =>
  isInside(join(ROOT, found.file), ADAPTERS) &&
  found.target !== undefined &&
  (found.target === join(FUNCTIONS, 'config.ts') || isInside(found.target, join(FUNCTIONS, 'parts')));

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

/** Every module a file imports or re-exports, static or dynamic, types included, as the TypeScript compiler reads them. */
function importsOf(file: string): Import[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.map(({ fileName: specifier }) => ({
    file: relative(ROOT, file),
    specifier,
    target: specifier.startsWith('.') ? resolve(dirname(file), specifier) : undefined,
  }));
}

/**
 * The code of the Lambda functions: their functions and every file they import, transitively.
 * Types count: a file whose types the functions are written in (domain/schemas.ts) is their code
 * even where the compiler leaves nothing of it in the bundle.
 */
function lambdaCode(entryFiles: readonly string[]): Set<string> {
  const reached = new Set<string>();
  const pending = [...entryFiles];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (reached.has(file)) continue;
    reached.add(file);
    for (const found of importsOf(file)) if (found.target !== undefined) pending.push(found.target);
  }
  return reached;
}

/** What `pick` finds in each node of a file's code (not its comments), as the TypeScript compiler reads it. */
function foundIn<T>(file: string, pick: (node: ts.Node) => T | undefined): T[] {
  const found: T[] = [];
  const visit = (node: ts.Node): void => {
    const picked = pick(node);
    if (picked !== undefined) found.push(picked);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest));
  return found;
}

/** The numbers a file's code writes (not its strings). */
const numericLiteralsOf = (file: string) => foundIn(file, (node) => (ts.isNumericLiteral(node) ? Number(node.text) : undefined));

const isHttpErrorStatus = (value: number) => value >= 400 && value <= 599;

/** The strings a file's code writes. */
const stringLiteralsOf = (file: string) =>
  foundIn(file, (node) => (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : undefined));

/** The names of the properties a file's object literals write without quotes (`{ ETag: … }`). */
const propertyNamesOf = (file: string) =>
  foundIn(file, (node) =>
    (ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && ts.isIdentifier(node.name) ? node.name.text : undefined,
  );

/**
 * The API's own header names: the rate-limit, lifecycle and idempotency fields it answers with or
 * reads. The webhooks' headers are another matter: domain/webhooks.ts builds a Standard Webhooks
 * message, whose signature covers its id and timestamp headers.
 */
const API_HEADER_NAMES =
  /^(X-[\w-]+|RateLimit|RateLimit-Policy|Retry-After|ETag|If-Match|If-None-Match|Idempotency-Key|Deprecation|Sunset)$/;
const isApiHeaderName = (value: string) => new RegExp(API_HEADER_NAMES.source, 'i').test(value);
const isApiHeaderNameAsWritten = (value: string) => API_HEADER_NAMES.test(value);

const isInside = (path: string, folder: string) => path === folder || path.startsWith(`${folder}${sep}`);
const describeImport = ({ file, specifier }: Import) => `${file} imports ${specifier}`;

/** The folders that hold this repository's code; tests, which import whatever they check, are not among them. */
const CODE_FOLDERS = ['functions', 'lib', 'bin', 'local', 'tools', 'contract', 'client', 'bench', 'scripts'].map((folder) =>
  join(ROOT, folder),
);

/** Each file to the files of this repository it imports, types included. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  return new Map(
    files.map((file) => [
      file,
      importsOf(file)
        .map((found) => found.target)
        .filter((target): target is string => target !== undefined && existsSync(target)),
    ]),
  );
}

/**
 * The circles of an import graph: each group of files that reach one another through imports
 * (Tarjan's strongly connected components of more than one file, or a file importing itself),
 * each sorted, in order of their first file.
 */
function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    lowest.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(target)!));
      } else if (onStack.has(target)) lowest.set(file, Math.min(lowest.get(file)!, index.get(target)!));
    }
    if (lowest.get(file) !== index.get(file)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = member === file ? undefined : stack.pop()) {
      onStack.delete(member);
      group.push(member);
    }
    if (group.length > 1 || graph.get(file)?.includes(file)) circles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The folders that import each other one way only, each from those after it and never from one before it. */
const ONE_WAY = ['tools', 'local', 'contract'].map((folder) => join(ROOT, folder));

/** The imports that go back up ONE_WAY: from a folder to one before it. */
function againstOneWay(imports: readonly Import[]): Import[] {
  const place = (path: string) => ONE_WAY.findIndex((folder) => isInside(path, folder));
  return imports.filter(({ file, target }) => {
    if (target === undefined) return false;
    const [from, to] = [place(join(ROOT, file)), place(target)];
    return from >= 0 && to >= 0 && to < from;
  });
}

describe('layering', () => {
  it("functions/ holds what ships to Lambda: every file in it is imported from some function's module", () => {
    const shipped = lambdaCode(LAMBDA_MODULES);
    const notShipped = sourceFiles(FUNCTIONS).filter((file) => !shipped.has(file));
    expect(notShipped.map((file) => relative(ROOT, file))).toEqual([]);
  });

  it('functions/lambda/ holds one module per deployed function, and no other', () => {
    const folder = dirname(LAMBDA_MODULES[0]!);
    expect(LAMBDA_MODULES.every((file) => dirname(file) === folder)).toBe(true);
    expect(sourceFiles(folder).sort()).toEqual([...LAMBDA_MODULES].sort());
  });

  it('functions/ imports nothing of this repository outside functions/ (no lib/, local server, tools or contract)', () => {
    const offending = sourceFiles(FUNCTIONS)
      .flatMap(importsOf)
      .filter((found) => found.target !== undefined && !isInside(found.target, FUNCTIONS));
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

  it("domain code writes no HTTP error status: what status an error code answers with is http/error-statuses.ts's", () => {
    const offending = sourceFiles(DOMAIN).flatMap((file) =>
      numericLiteralsOf(file)
        .filter(isHttpErrorStatus)
        .map((status) => `${relative(ROOT, file)} writes ${status}`),
    );
    expect(offending).toEqual([]);
  });

  it("domain code names none of the API's headers: the rate-limit fields are http/rate-limit-headers.ts's, the others http/'s", () => {
    // Written as a property, a header name has its own case (ETag, RateLimit); a domain field may be rateLimit.
    const offending = sourceFiles(DOMAIN).flatMap((file) =>
      [...stringLiteralsOf(file).filter(isApiHeaderName), ...propertyNamesOf(file).filter(isApiHeaderNameAsWritten)].map(
        (name) => `${relative(ROOT, file)} names ${name}`,
      ),
    );
    expect(offending).toEqual([]);
  });

  it('no import circles: no file imports itself back through others, type-only imports included', () => {
    const circles = circlesOf(importGraph(CODE_FOLDERS.flatMap(sourceFiles)));
    expect(circles.map((circle) => circle.map((file) => relative(ROOT, file)).join(' <-> '))).toEqual([]);
  });

  it('handlers and operations import no adapter and no AWS SDK: they are given parts (functions/parts/), which join the two', () => {
    expect(HANDLERS.flatMap(sourceFiles).flatMap(importsOf).filter(breaksHandlerRule).map(describeImport)).toEqual([]);
  });

  it('adapters import no service configuration and no parts: what they are given, they are given by parts', () => {
    expect(sourceFiles(ADAPTERS).flatMap(importsOf).filter(breaksAdapterRule).map(describeImport)).toEqual([]);
  });

  it('finds a handler that imports an adapter or the AWS SDK, and an adapter that imports the configuration or a part', () => {
    const planted: Import[] = [
      { file: 'functions/handlers/x.ts', specifier: '../adapters/dynamodb/y.ts', target: join(ADAPTERS, 'dynamodb', 'y.ts') },
      { file: 'functions/operations/x.ts', specifier: '@aws-sdk/client-sqs', target: undefined },
      { file: 'functions/operations/x.ts', specifier: '../parts/inventory.ts', target: join(FUNCTIONS, 'parts', 'inventory.ts') },
      { file: 'functions/adapters/dynamodb/x.ts', specifier: '../../config.ts', target: join(FUNCTIONS, 'config.ts') },
      { file: 'functions/adapters/dynamodb/x.ts', specifier: '../../parts/part.ts', target: join(FUNCTIONS, 'parts', 'part.ts') },
      { file: 'functions/adapters/dynamodb/x.ts', specifier: '../../domain/errors.ts', target: join(DOMAIN, 'errors.ts') },
    ];
    expect(planted.filter(breaksHandlerRule).map(describeImport)).toEqual([
      'functions/handlers/x.ts imports ../adapters/dynamodb/y.ts',
      'functions/operations/x.ts imports @aws-sdk/client-sqs',
    ]);
    expect(planted.filter(breaksAdapterRule).map(describeImport)).toEqual([
      'functions/adapters/dynamodb/x.ts imports ../../config.ts',
      'functions/adapters/dynamodb/x.ts imports ../../parts/part.ts',
    ]);
  });

  it('adapters (functions/adapters/) import nothing from the HTTP layer (functions/http/)', () => {
    const offending = sourceFiles(join(FUNCTIONS, 'adapters'))
      .flatMap(importsOf)
      .filter((found) => found.target !== undefined && isInside(found.target, join(FUNCTIONS, 'http')));
    expect(offending.map(describeImport)).toEqual([]);
  });

  it('tools/, local/ and contract/ import each other one way only: tools -> local -> contract', () => {
    expect(againstOneWay(ONE_WAY.flatMap(sourceFiles).flatMap(importsOf)).map(describeImport)).toEqual([]);
  });

  it('domain errors carry a code, a message and details, but no HTTP status or headers', () => {
    expectTypeOf<ApiError>().not.toHaveProperty('status');
    expectTypeOf<ApiError>().not.toHaveProperty('headers');
    expectTypeOf<ApiError>().toHaveProperty('code');
  });

  it('finds the imports it checks (a rule that reads nothing would pass forever)', () => {
    expect(sourceFiles(DOMAIN).length).toBeGreaterThan(5);
    expect(numericLiteralsOf(join(DOMAIN, 'plans.ts')).length).toBeGreaterThan(0);
    expect(numericLiteralsOf(join(FUNCTIONS, 'http', 'error-statuses.ts')).filter(isHttpErrorStatus)).toContain(404);
    expect(stringLiteralsOf(join(FUNCTIONS, 'http', 'rate-limit-headers.ts')).filter(isApiHeaderName)).toContain('X-RateLimit-Reset');
    expect(propertyNamesOf(join(FUNCTIONS, 'http', 'lifecycle-headers.ts')).filter(isApiHeaderNameAsWritten).length).toBeGreaterThan(0);
    expect(importsOf(join(DOMAIN, 'plan-limiter.ts')).map((found) => found.specifier)).toEqual([
      './api-keys.ts',
      './errors.ts',
      './plans.ts',
      './rate-limit-state.ts',
    ]);
    expect(
      importsOf(join(ROOT, 'tools', 'keys', 'key-targets.ts')).some((found) => found.target === join(ROOT, 'lib', 'deployments.ts')),
    ).toBe(true);
    const shipped = lambdaCode(LAMBDA_MODULES);
    expect(shipped.has(join(DOMAIN, 'inventory-service.ts'))).toBe(true);
    expect(shipped.has(join(FUNCTIONS, 'http', 'request-body-validators.generated.ts'))).toBe(true);
    // The operation registry ships: the handlers read their lifecycle headers from it.
    expect(shipped.has(OPERATION_REGISTRY)).toBe(true);
    const graph = importGraph(CODE_FOLDERS.flatMap(sourceFiles));
    expect(graph.get(join(ROOT, 'tools', 'keys', 'key-targets.ts'))).toContain(join(ROOT, 'local', 'local-store.ts'));
    expect([...graph.values()].flat().length).toBeGreaterThan(500);
  });

  it('finds a circle, type-only imports included, and an import that goes back up tools -> local -> contract', () => {
    const [a, b, c, d] = ['a.ts', 'b.ts', 'c.ts', 'd.ts'];
    expect(
      circlesOf(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, [a]],
          [d, [a, d]],
        ]),
      ),
    ).toEqual([[a, b, c], [d]]);
    expect(
      circlesOf(
        new Map([
          [a, [b]],
          [b, []],
        ]),
      ),
    ).toEqual([]);
    // A type-only import is an import: preProcessFile reads `import type` as it reads `import`.
    expect(ts.preProcessFile("import type { X } from './x.ts';", true, true).importedFiles.map((found) => found.fileName)).toEqual([
      './x.ts',
    ]);
    const imports: Import[] = [
      { file: 'contract/examples.ts', specifier: '../local/seed.ts', target: join(ROOT, 'local', 'seed.ts') },
      { file: 'local/main.ts', specifier: '../tools/x.ts', target: join(ROOT, 'tools', 'x.ts') },
      { file: 'tools/x.ts', specifier: '../local/main.ts', target: join(ROOT, 'local', 'main.ts') },
      { file: 'local/main.ts', specifier: '../contract/y.ts', target: join(ROOT, 'contract', 'y.ts') },
    ];
    expect(againstOneWay(imports).map(describeImport)).toEqual([
      'contract/examples.ts imports ../local/seed.ts',
      'local/main.ts imports ../tools/x.ts',
    ]);
  });
});

describe('every route has its handler', () => {
  it('is a table keyed by every OperationId', () => {
    expectTypeOf(createOperationHandlers).returns.toEqualTypeOf<Promise<Record<OperationId, HttpHandler | StreamedHttpHandler>>>();
  });

  it.each(apiRoutes.map((route) => route.operationId))(
    '%s is defined where the registry names it, under its own name',
    async (operationId) => {
      const module = (await import(join(ROOT, operationModuleFile(operationId)))) as Record<string, { operationId?: string }>;
      expect(Object.keys(module)).toEqual([operationId]);
      expect(module[operationId]!.operationId).toBe(operationId);
    },
  );

  it('serves every route of routes.ts in one process, and nothing else', async () => {
    const dependencies = createDependencies({ ...LOCAL_TABLES, dynamodbEndpoint: 'http://127.0.0.1:1', banPolicy: DEFAULT_BAN_POLICY });
    try {
      const handlers = await createOperationHandlers(dependencies);
      expect(Object.keys(handlers).sort()).toEqual(apiRoutes.map((route) => route.operationId).sort());
      expect(Object.values(handlers).every((handler) => typeof handler === 'function')).toBe(true);
    } finally {
      dependencies.close();
    }
  });

  it.each(deployedLambdas)('%s has a Lambda module that exports handler', (lambda) => {
    const source = readFileSync(join(ROOT, lambdaModuleFile(lambda)), 'utf8');
    expect(source).toMatch(/^export const handler = /m);
  });
});

/** Where the code a test can be about lives (test/support/ is the tests' own). */
const SOURCE_FOLDERS = ['functions', 'lib', 'local', 'tools', 'contract', 'client', 'scripts', 'bench', 'bin'];
/** The share of test files that a newcomer finds by searching for the name of the file they test. */
const NAMED_AFTER_THEIR_SUBJECT = 3 / 4;

describe('test files', () => {
  it('are named after the file they test, three in four at least: the tests of x.ts are x.test.ts', () => {
    const sourceNames = new Set(
      SOURCE_FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder))).map((file) =>
        file
          .split(sep)
          .pop()!
          .replace(/\.(ts|mts|mjs)$/, ''),
      ),
    );
    const testFiles = readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.test.ts'));
    const unnamed = testFiles.filter(
      (file) =>
        !sourceNames.has(
          file
            .split(sep)
            .pop()!
            .replace(/\.test\.ts$/, ''),
        ),
    );

    expect(testFiles.length).toBeGreaterThan(100);
    const share = (testFiles.length - unnamed.length) / testFiles.length;
    expect(share, `named after no file: ${unnamed.join(', ')}`).toBeGreaterThanOrEqual(NAMED_AFTER_THEIR_SUBJECT);
  });
});
