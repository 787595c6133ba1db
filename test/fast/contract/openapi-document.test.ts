import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { renderOpenApiDocument } from '../../../contract/openapi-document.ts';
import { apiRoutes } from '../../../functions/routes.ts';
import { OPENAPI_FILE } from './contract-validator.ts';

/** What the published document promises, beyond what the response tests can observe. */

interface Operation {
  operationId: string;
  tags: string[];
  security: Record<string, string[]>[];
  deprecated?: boolean;
  'x-experimental'?: boolean;
  responses: Record<
    string,
    { description: string; headers?: Record<string, { $ref?: string; required?: boolean }>; content?: Record<string, { schema: unknown }> }
  >;
}

const document = JSON.parse(renderOpenApiDocument()) as {
  openapi: string;
  servers: { url: string; variables?: Record<string, { default: string }> }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<
    string,
    Record<
      string,
      {
        security: unknown[];
        parameters: { name: string; in: string; required: boolean }[];
        requestBody: { required: boolean; content: Record<string, { schema: unknown; example: unknown }> };
        responses: Record<string, { description: string }>;
      }
    >
  >;
  components: {
    schemas: Record<string, Record<string, unknown>>;
    headers: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
};
const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
const byId = (operationId: string) => operations.find((candidate) => candidate.operationId === operationId)!;

describe('openapi.json', () => {
  it('is committed as generated (npm run openapi)', async () => {
    expect(await readFile(OPENAPI_FILE, 'utf8')).toBe(renderOpenApiDocument());
  });

  it('is OpenAPI 3.1 with every route of routes.ts, under its method and operationId', () => {
    expect(document.openapi).toBe('3.1.0');
    for (const { operationId, method, resource } of apiRoutes)
      expect(document.paths[resource]?.[method.toLowerCase()]?.operationId).toBe(operationId);
    expect(operations).toHaveLength(apiRoutes.length);
  });

  it('asks for the bearer API key on every operation', () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const operation of operations) expect(operation.security).toEqual([{ bearerAuth: [] }]);
  });

  it('tags the inventory as Store and the pet as Pets', () => {
    expect([byId('listInventory').tags, byId('updateInventory').tags, byId('getPetById').tags]).toEqual([['Store'], ['Store'], ['Pets']]);
  });

  it('lists production and staging servers ending in /v1', () => {
    const urls = document.servers.map(({ url, variables }) => url.replace('{host}', variables?.host?.default ?? ''));
    expect(urls).toEqual(['https://api.petstore.example/v1', 'https://staging.api.petstore.example/v1']);
  });

  it('marks updateInventory experimental and getPetById deprecated', () => {
    expect(byId('updateInventory')['x-experimental']).toBe(true);
    expect(byId('getPetById').deprecated).toBe(true);
    expect(byId('listInventory')).not.toHaveProperty('deprecated');
  });

  it('answers every error with the Error schema and names its codes', () => {
    const errors = operations.flatMap((operation) => Object.entries(operation.responses).filter(([status]) => Number(status) >= 400));
    for (const [, response] of errors) {
      expect(response.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Error' });
      expect(response.description).toMatch(/Codes: `[A-Z_]+`/);
    }
  });

  it('puts Retry-After on every 429 and 503, required', () => {
    for (const operation of operations) {
      for (const status of ['429', '503'])
        expect(operation.responses[status]?.headers?.['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    }
  });

  it("pages the change feed with a nextCursor that is always a string, and a pet's history with one that ends in null", () => {
    expect(document.components.schemas.ChangeFeedPage).toMatchObject({
      required: ['changes', 'nextCursor'],
      properties: { changes: { items: { $ref: '#/components/schemas/ChangeEventData' } }, nextCursor: { type: 'string' } },
    });
    expect(document.components.schemas.ChangesPage).toMatchObject({ properties: { nextCursor: { type: ['string', 'null'] } } });
    const parameters = (byId('listInventoryChangeFeed') as Operation & { parameters: { name: string; in: string; schema: unknown }[] })
      .parameters;
    expect(parameters).toMatchObject([
      { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
      { name: 'cursor', in: 'query', schema: { type: 'string' } },
    ]);
  });

  it('lists the inventory.changed webhook: POSTed with the Standard Webhooks headers, its body the event around a ChangeEventData', () => {
    const webhook = document.webhooks['inventory.changed']!.post!;
    expect(webhook.parameters.map(({ name, in: location, required }) => [name, location, required])).toEqual([
      ['webhook-id', 'header', true],
      ['webhook-timestamp', 'header', true],
      ['webhook-signature', 'header', true],
    ]);
    expect(webhook.requestBody.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/InventoryChangedEvent' });
    expect(document.components.schemas.InventoryChangedEvent).toMatchObject({
      required: ['type', 'timestamp', 'data'],
      properties: { type: { enum: ['inventory.changed'] }, data: { $ref: '#/components/schemas/ChangeEventData' } },
    });
    expect(Object.keys(webhook.responses)).toEqual(['2XX', 'default']);
    // Signed, not sent with a key: the document-wide bearer requirement does not apply.
    expect(webhook.security).toEqual([]);
  });

  it('keeps petId an int64 and bounds quantity to 0..2147483647', () => {
    expect(document.components.schemas.PetId).toMatchObject({ type: 'integer', format: 'int64', minimum: 1 });
    expect(document.components.schemas.Quantity).toMatchObject({ type: 'integer', minimum: 0, maximum: 2_147_483_647 });
  });
});
