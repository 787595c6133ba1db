import { apiRoutes } from '../functions/routes.ts';
import { SCHEMAS_BY_NAME } from './schemas-by-name.ts';

/** A body an operation of the registry (functions/routes.ts) validates, by its schema's name in domain/schemas.ts. */
export type RequestBodyName = Extract<(typeof apiRoutes)[number], { body: string }>['body'];

/**
 * Every request body a function validates: the `body` of each operation of the registry. This list
 * drives `npm run validators`: each schema becomes a JSON Schema (z.toJSONSchema), compiled by
 * Ajv to standalone code in functions/http/request-body-validators.generated.ts, whose export of
 * the same name a handler passes to httpHandler({ body }). Adding a body is its operation's `body` in
 * routes.ts, then `npm run validators`; `npm test` fails while the generated file is stale, and
 * test/fast/contract/request-body-validators.test.ts checks that each compiled validator accepts and
 * refuses the same bodies as its zod schema. zod refinements (.refine, .superRefine) and
 * transforms have no JSON Schema form: that test fails on a schema that relies on them. An int64
 * (PetId, a bigint to zod) is validated as a JSON integer, then read exactly (json-body.ts).
 */
export const REQUEST_BODY_SCHEMAS = Object.fromEntries(
  apiRoutes.flatMap((route) => ('body' in route ? [[route.body, SCHEMAS_BY_NAME[route.body]] as const] : [])),
) as { [Name in RequestBodyName]: (typeof SCHEMAS_BY_NAME)[Name] };
