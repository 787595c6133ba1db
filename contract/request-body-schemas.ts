import type { z } from 'zod';
import { InventoryAdjustment, InventoryAdjustmentBatch, InventoryUpdate, LowStockThresholdUpdate } from '../functions/domain/schemas.ts';

/**
 * Every request body a function validates, by its schema's name in domain/schemas.ts. This list
 * drives `npm run validators`: each schema becomes a JSON Schema (z.toJSONSchema), compiled by
 * Ajv to standalone code in functions/http/request-body-validators.generated.ts, whose export of
 * the same name a handler passes to httpHandler({ body }). Adding a body is one line here, then
 * `npm run validators`; `npm test` fails while the generated file is stale, and
 * test/fast/contract/request-body-validators.test.ts checks that each compiled validator accepts and
 * refuses the same bodies as its zod schema. zod refinements (.refine, .superRefine) and
 * transforms have no JSON Schema form: that test fails on a schema that relies on them. An int64
 * (PetId, a bigint to zod) is validated as a JSON integer, then read exactly (json-body.ts).
 */
export const REQUEST_BODY_SCHEMAS = {
  InventoryUpdate,
  InventoryAdjustment,
  InventoryAdjustmentBatch,
  LowStockThresholdUpdate,
} as const satisfies Record<string, z.ZodType>;

export type RequestBodyName = keyof typeof REQUEST_BODY_SCHEMAS;
