import { readFile } from 'node:fs/promises';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';
import type { OpenAPIV3_1 } from 'openapi-types';

/** The committed contract, as clients get it. */
export const OPENAPI_FILE = new URL('../../../openapi.json', import.meta.url);

export interface ObservedResponse {
  method: string;
  /** Path as requested, from the stage on: `/v1/inventory`. */
  path: string;
  status: number;
  headers: Headers;
  /** The body as sent; parsed here as any client would. */
  text: string;
}

/** One answer found not to conform, with everything needed to see why. */
export class ContractViolation extends Error {
  constructor(response: ObservedResponse, problems: unknown) {
    super(
      `${response.method} ${response.path} → ${response.status} breaks openapi.json: ${JSON.stringify(problems, null, 2)}\nbody: ${response.text}`,
    );
  }
}

/**
 * Validates live answers against openapi.json with openapi-backend, its Ajv switched to JSON
 * Schema 2020-12 (the dialect of OpenAPI 3.1). The library leaves three things to its caller,
 * and each is read from the document here, never from a list of fields: an undocumented status
 * must fail (the library would skip it), a header the document marks `required` must be
 * present (the library checks the values of the headers it finds), and the Content-Type must
 * be one the response documents.
 */
export class ContractValidator {
  /** Every answer checked, as `operationId status` (or `unknown route status`), in order. */
  readonly checked: string[] = [];

  private constructor(
    private readonly api: OpenAPIBackend,
    private readonly validateError: ValidateFunction,
  ) {}

  static async load(apiRoot = '/v1'): Promise<ContractValidator> {
    const document = JSON.parse(await readFile(OPENAPI_FILE, 'utf8')) as OpenAPIV3_1.Document;
    const api = new OpenAPIBackend({
      definition: document as Document,
      apiRoot,
      strict: true,
      // openapi-backend checks documents against the OpenAPI 3.0 schema; Redocly lints our 3.1 document (npm run openapi:lint).
      quick: true,
      customizeAjv: (original, options) => {
        const ajv = new Ajv2020({ ...options, strict: false });
        // Keep the OAS formats (int32, int64, …) that openapi-backend registered on its own instance.
        for (const [name, format] of Object.entries(original.formats)) if (format) ajv.addFormat(name, format);
        return ajv as unknown as typeof original;
      },
    });
    await api.init();
    // Unknown routes belong to no operation: their body is checked against the document's Error schema.
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(document, 'openapi.json');
    return new ContractValidator(api, ajv.compile({ $ref: 'openapi.json#/components/schemas/Error' }));
  }

  /** Reads a fetch answer to `method url`, checks it, and returns what was observed. */
  async checkFetched(method: string, url: URL, response: Response): Promise<ObservedResponse> {
    const observed = { method, path: url.pathname, status: response.status, headers: response.headers, text: await response.text() };
    this.check(observed);
    return observed;
  }

  /** Throws ContractViolation unless the answer is one the document describes, headers included. */
  check(response: ObservedResponse): void {
    const operation = this.api.router.matchOperation({ method: response.method, path: response.path, headers: {} });
    if (!operation) {
      if (response.status !== 404 || !this.validateError(JSON.parse(response.text))) {
        throw new ContractViolation(response, ['an unknown route answers 404 with an Error body', ...(this.validateError.errors ?? [])]);
      }
      this.checked.push(`unknown route ${response.status}`);
      return;
    }
    const problems = [
      ...this.documentedStatus(operation, response),
      ...this.body(operation, response),
      ...this.requiredHeaders(operation, response),
      ...(this.api.validator.validateResponseHeaders(Object.fromEntries(response.headers), operation, { statusCode: response.status })
        .errors ?? []),
    ];
    if (problems.length > 0) throw new ContractViolation(response, problems);
    this.checked.push(`${operation.operationId} ${response.status}`);
  }

  /** Every `operationId status` the document lists, to compare with what the tests provoked. */
  documentedAnswers(): string[] {
    return this.api.router
      .getOperations()
      .flatMap(({ operationId, responses }) => Object.keys(responses ?? {}).map((status) => `${operationId} ${status}`));
  }

  private responseObject(operation: Operation, status: number): OpenAPIV3_1.ResponseObject | undefined {
    return (operation.responses as Record<string, OpenAPIV3_1.ResponseObject> | undefined)?.[String(status)];
  }

  private documentedStatus(operation: Operation, response: ObservedResponse): string[] {
    return this.responseObject(operation, response.status)
      ? []
      : [`status ${response.status} is not documented for ${operation.operationId}`];
  }

  /** The body in a Content-Type and schema the answer documents, or no body and no Content-Type where it documents none (a 204). */
  private body(operation: Operation, response: ObservedResponse): unknown[] {
    const documented = Object.keys(this.responseObject(operation, response.status)?.content ?? {});
    const sent = response.headers.get('content-type')?.split(';')[0]?.trim();
    if (documented.length === 0)
      return sent === undefined && response.text === '' ? [] : [`an answer documented without content has Content-Type ${sent} and a body`];
    if (sent === undefined || !documented.includes(sent)) return [`Content-Type ${sent} is not one of ${documented.join(', ')}`];
    return this.api.validator.validateResponse(JSON.parse(response.text), operation, response.status).errors ?? [];
  }

  private requiredHeaders(operation: Operation, response: ObservedResponse): string[] {
    const headers = (this.responseObject(operation, response.status)?.headers ?? {}) as Record<string, OpenAPIV3_1.HeaderObject>;
    return Object.entries(headers)
      .filter(([name, header]) => header.required === true && !response.headers.has(name))
      .map(([name]) => `required header ${name} is missing`);
  }
}
