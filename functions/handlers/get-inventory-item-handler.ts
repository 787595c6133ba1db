import { getInventoryItem } from '../domain/inventory-service.ts';
import { httpHandler } from '../http/http-handler.ts';
import { entityTagHeader } from '../http/entity-tags.ts';
import { jsonResponse } from '../http/json.ts';
import { petIdFromPath } from '../http/path-parameters.ts';
import { planLimitedRead } from '../http/plan-limits.ts';
import { routeOf } from '../routes.ts';
import type { InventoryHandlerDependencies } from './inventory-handler-dependencies.ts';

/** GET /inventory/{petId}: one entry, strongly consistent, as a compare-and-set starts from; read while the request is counted. */
export function createGetInventoryItemHandler({ inventory, limiter }: InventoryHandlerDependencies) {
  const counted = planLimitedRead(limiter, (event) => getInventoryItem(inventory, petIdFromPath(event)));
  return httpHandler({ route: routeOf('getInventoryItem'), guards: [counted.guard] }, async (event) => {
    const { item, version } = await counted.result(event);
    return jsonResponse(200, item, entityTagHeader(version));
  });
}
