import { z } from 'zod';

/**
 * The spec's objects, once. Types, request validation and the OpenAPI document all derive
 * from these schemas, so they cannot drift apart.
 */

export const MAX_INT64 = 9_223_372_036_854_775_807n;
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

export const ErrorBody = z.strictObject({
  code: z.string(),
  message: z.string(),
  status: z.int(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

const CANONICAL_POSITIVE_INTEGER = /^[1-9][0-9]{0,18}$/;

/**
 * Parses a petId from its decimal text (a path segment or a JSON number's source text).
 * Only the canonical form is accepted ("7", not "007", "+7" or "7.0"), so one id has one
 * spelling in URLs, logs and storage. Returns undefined for anything that is not an int64 id.
 */
export function parsePetId(text: string | undefined): PetId | undefined {
  if (text === undefined || !CANONICAL_POSITIVE_INTEGER.test(text)) return undefined;
  const id = BigInt(text);
  return id <= MAX_INT64 ? id : undefined;
}
