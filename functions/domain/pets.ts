import { ApiError, ErrorCode } from './errors.ts';
import type { InventoryRepository } from './inventory-service.ts';
import type { Pet, PetId } from './schemas.ts';

export async function getPetById(repository: Pick<InventoryRepository, 'get'>, petId: PetId): Promise<Pet> {
  const { item } = (await repository.get(petId)) ?? {};
  if (!item) throw new ApiError(ErrorCode.petNotFound, `No pet ${petId} is known to the inventory.`);
  return { id: item.petId, status: item.status };
}
