import { getInventoryItem } from '../domain/inventory-service.ts';
import { httpHandler } from '../http/http-handler.ts';
import { jsonResponse } from '../http/json.ts';
import { petIdFromPath } from '../http/path-parameters.ts';
import { planLimits } from '../http/plan-limits.ts';
import type { InventoryHandlerDependencies } from './inventory-handler-dependencies.ts';

/** GET /inventory/{petId}: one entry, strongly consistent, as a compare-and-set starts from. */
export function createGetInventoryItemHandler({ inventory, limiter }: InventoryHandlerDependencies) {
  return httpHandler({ guards: [planLimits(limiter)] }, async (event) =>
    jsonResponse(200, await getInventoryItem(inventory, petIdFromPath(event))),
  );
}
