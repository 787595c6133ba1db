import type { HistoryRepository } from '../domain/inventory-history.ts';
import { listInventoryChanges } from '../domain/inventory-history.ts';
import type { InventoryRepository } from '../domain/inventory-service.ts';
import type { UsageLimiter } from '../domain/usage-limits.ts';
import { httpHandler } from '../http/http-handler.ts';
import { jsonResponse } from '../http/json.ts';
import { petIdFromPath } from '../http/path-parameters.ts';
import { planLimitedRead } from '../http/plan-limits.ts';
import { routeOf } from '../routes.ts';

export interface ListInventoryChangesHandlerDependencies {
  inventory: Pick<InventoryRepository, 'get'>;
  history: Pick<HistoryRepository, 'page'>;
  limiter: UsageLimiter;
}

/** GET /inventory/{petId}/changes?limit=&cursor=: a page of the pet's history, oldest first, read while the request is counted. */
export function createListInventoryChangesHandler({ inventory, history, limiter }: ListInventoryChangesHandlerDependencies) {
  const counted = planLimitedRead(limiter, (event) => {
    const query = event.queryStringParameters ?? {};
    return listInventoryChanges(inventory, history, petIdFromPath(event), { limit: query.limit, cursor: query.cursor });
  });
  return httpHandler({ route: routeOf('listInventoryChanges'), guards: [counted.guard] }, async (event) =>
    jsonResponse(200, await counted.result(event)),
  );
}
