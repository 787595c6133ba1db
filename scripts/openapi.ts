/**
 * `npm run openapi` (write) regenerates the published contract: openapi.json from the zod
 * schemas, then client/schema.d.ts from openapi.json. `npm run openapi:check` (check) fails
 * when either committed file differs from what the code generates now.
 */
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { renderOpenApiDocument } from '../functions/contract/openapi-document.ts';
import { runScript, writeOrCheck, type GeneratedFile } from './generated-files.ts';

const DOCUMENT_FILE = new URL('../openapi.json', import.meta.url);
const CLIENT_TYPES_FILE = new URL('../client/schema.d.ts', import.meta.url);

const CLIENT_TYPES_HEADER = `/**
 * Generated from openapi.json by \`npm run openapi\` (openapi-typescript). Do not edit.
 * int64 fields are bigint: the client parses them exactly (see client/int64-json.ts).
 */

`;

async function clientTypes(documentText: string): Promise<string> {
  const ast = await openapiTS(JSON.parse(documentText) as OpenAPI3, {
    // petId can exceed 2^53; the client keeps it exact as a bigint, so its type says so.
    transform: (schema) => (schema.format === 'int64' ? ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword) : undefined),
  });
  return CLIENT_TYPES_HEADER + astToString(ast);
}

async function generated(): Promise<GeneratedFile[]> {
  const documentText = renderOpenApiDocument();
  return [
    { file: DOCUMENT_FILE, text: documentText },
    { file: CLIENT_TYPES_FILE, text: await clientTypes(documentText) },
  ];
}

runScript(() => writeOrCheck(process.argv[2], generated, 'npm run openapi', 'tsx scripts/openapi.ts write|check'));
