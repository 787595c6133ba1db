/**
 * `npm run openapi` (write) regenerates the published contract: openapi.json from the zod
 * schemas, then client/schema.d.ts from openapi.json, and client/api-error-codes.ts from the
 * service's error codes. `npm run openapi:check` (check) fails when a committed file differs
 * from what the code generates now.
 */
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { renderOpenApiDocument } from '../contract/openapi-document.ts';
import { ErrorCode } from '../functions/domain/errors.ts';
import { runScript, writeOrCheck, type GeneratedFile } from './generated-files.ts';

const DOCUMENT_FILE = new URL('../openapi.json', import.meta.url);
const CLIENT_TYPES_FILE = new URL('../client/schema.d.ts', import.meta.url);
const CLIENT_ERROR_CODES_FILE = new URL('../client/api-error-codes.ts', import.meta.url);

const CLIENT_TYPES_HEADER = `/**
 * Generated from openapi.json by \`npm run openapi\` (openapi-typescript). Do not edit.
 * int64 fields are bigint: the client parses them exactly (see client/int64-json.ts).
 */

`;

type MediaTypes = Record<string, { example?: unknown; examples?: unknown }>;
type Operations = Record<string, { requestBody?: { content?: MediaTypes }; responses?: Record<string, { content?: MediaTypes }> }>;

/**
 * The document without its request and response examples: they are for readers of the
 * reference, and JSON.parse would print their int64 ids rounded in the types' comments.
 */
function withoutExamples(documentText: string): OpenAPI3 {
  const document = JSON.parse(documentText) as OpenAPI3 & { paths: Record<string, Operations> };
  const contents = Object.values(document.paths)
    .flatMap((item) => Object.values(item))
    .flatMap((operation) => [
      operation.requestBody?.content,
      ...Object.values(operation.responses ?? {}).map((response) => response.content),
    ]);
  for (const content of contents) {
    for (const mediaType of Object.values(content ?? {})) {
      delete mediaType.example;
      delete mediaType.examples;
    }
  }
  return document;
}

async function clientTypes(documentText: string): Promise<string> {
  const ast = await openapiTS(withoutExamples(documentText), {
    // petId can exceed 2^53; the client keeps it exact as a bigint, so its type says so.
    transform: (schema) => (schema.format === 'int64' ? ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword) : undefined),
  });
  return CLIENT_TYPES_HEADER + astToString(ast);
}

/** The client's union of codes: the package cannot import the service, so it gets a copy that cannot drift. */
function clientErrorCodes(): string {
  const codes = [...new Set(Object.values(ErrorCode))].sort();
  return `/**
 * Generated from functions/domain/errors.ts by \`npm run openapi\`. Do not edit.
 * Every \`code\` an Error body of the API can carry.
 */
export const API_ERROR_CODES = [
${codes.map((code) => `  '${code}',`).join('\n')}
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];
`;
}

async function generated(): Promise<GeneratedFile[]> {
  const documentText = renderOpenApiDocument();
  return [
    { file: DOCUMENT_FILE, text: documentText },
    { file: CLIENT_TYPES_FILE, text: await clientTypes(documentText) },
    { file: CLIENT_ERROR_CODES_FILE, text: clientErrorCodes() },
  ];
}

runScript(() => writeOrCheck(process.argv[2], generated, 'npm run openapi', 'tsx scripts/openapi.ts write|check'));
