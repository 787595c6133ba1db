import type { InventoryRepository } from '../domain/inventory-service.ts';
import { getPetById } from '../domain/pets.ts';
import type { UsageLimiter } from '../domain/usage-limits.ts';
import { httpHandler } from '../http/http-handler.ts';
import { jsonResponse } from '../http/json.ts';
import { petIdFromPath } from '../http/path-parameters.ts';
import { planLimitedRead } from '../http/plan-limits.ts';
import { routeOf } from '../routes.ts';

export interface GetPetByIdHandlerDependencies {
  inventory: Pick<InventoryRepository, 'get'>;
  limiter: UsageLimiter;
  /** When GET /pets/{petId} may stop answering; see readPetsSunset in config.ts. */
  petsSunsetAt: Date;
}

/** GET /pets/{petId}: deprecated, so every answer carries Deprecation, Sunset and Link; read while the request is counted. */
export function createGetPetByIdHandler({ inventory, limiter, petsSunsetAt }: GetPetByIdHandlerDependencies) {
  const counted = planLimitedRead(limiter, (event) => getPetById(inventory, petIdFromPath(event)));
  return httpHandler({ route: routeOf('getPetById'), sunsetAt: petsSunsetAt, guards: [counted.guard] }, async (event) =>
    jsonResponse(200, await counted.result(event)),
  );
}
