import type { InventoryRepository } from '../domain/inventory-service.ts';
import { getPet } from '../domain/pets.ts';
import type { UsageLimiter } from '../domain/usage-limits.ts';
import { getPetDeprecation } from '../domain/versioning.ts';
import { httpHandler } from '../http/http-handler.ts';
import { jsonResponse } from '../http/json.ts';
import { petIdFromPath } from '../http/path-parameters.ts';
import { planLimits } from '../http/plan-limits.ts';
import { deprecationHeaders, operationHeaders } from '../http/versioning-headers.ts';

export interface PetHandlerDependencies {
  inventory: Pick<InventoryRepository, 'get'>;
  limiter: UsageLimiter;
  /** When GET /pets/{petId} may stop answering; see readPetsSunset in config.ts. */
  petsSunsetAt: Date;
}

/** GET /pets/{petId}: deprecated, so every answer carries Deprecation, Sunset and Link. */
export function createGetPetHandler({ inventory, limiter, petsSunsetAt }: PetHandlerDependencies) {
  const deprecation = operationHeaders(deprecationHeaders(getPetDeprecation(petsSunsetAt)));
  return httpHandler({ guards: [planLimits(limiter), deprecation] }, async (event) =>
    jsonResponse(200, await getPet(inventory, petIdFromPath(event))),
  );
}
