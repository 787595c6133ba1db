import { z } from 'zod';
import { ErrorCode, NotFoundError } from './errors.ts';
import type { InventoryRepository } from './inventory-service.ts';
import { PetId, PetStatus } from './schemas.ts';

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

export async function getPet(repository: Pick<InventoryRepository, 'get'>, petId: PetId): Promise<Pet> {
  const item = await repository.get(petId);
  if (!item) throw new NotFoundError(ErrorCode.petNotFound, `No pet ${petId} is known to the inventory.`);
  return { id: item.petId, status: item.status };
}
