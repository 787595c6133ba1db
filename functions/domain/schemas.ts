import { z } from 'zod';
import { MAX_INT64 } from './pet-id.ts';

/**
 * The spec's objects, once. Types, request validation and the OpenAPI document all derive
 * from these schemas, so they cannot drift apart.
 */

export const MAX_QUANTITY = 2_147_483_647;

/** petId is int64; bigint keeps ids above 2^53 exact where a JS number would round them. */
export const PetId = z.bigint().min(1n).max(MAX_INT64);
export type PetId = z.infer<typeof PetId>;

export const PetStatus = z.enum(['available', 'pending', 'sold']);
export type PetStatus = z.infer<typeof PetStatus>;

export const Quantity = z.int().min(0).max(MAX_QUANTITY);

export const InventoryItem = z.strictObject({
  petId: PetId,
  quantity: Quantity,
  status: PetStatus,
});
export type InventoryItem = z.infer<typeof InventoryItem>;

export const InventoryUpdate = z.strictObject({
  quantity: Quantity,
});
export type InventoryUpdate = z.infer<typeof InventoryUpdate>;

/**
 * What this service knows of a pet: the inventory table holds its id and status and nothing
 * else, so that is all GET /pets/{petId} returns. The field names are the classic Petstore
 * Pet's (`id`, `status`), so clients of the old operation read them where they always did.
 */
export const Pet = z.strictObject({
  id: PetId,
  status: PetStatus,
});
export type Pet = z.infer<typeof Pet>;

export const ErrorBody = z.strictObject({
  code: z.string(),
  message: z.string(),
  status: z.int(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
