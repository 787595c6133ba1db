import type { HistoryRepository } from '../domain/inventory-history.ts';
import { listInventoryChanges } from '../domain/inventory-history.ts';
import type { InventoryRepository } from '../domain/inventory-service.ts';
import type { UsageLimiter } from '../domain/usage-limits.ts';
import { httpHandler } from '../http/http-handler.ts';
import { jsonResponse } from '../http/json.ts';
import { petIdFromPath } from '../http/path-parameters.ts';
import { planLimits } from '../http/plan-limits.ts';
import { operationHeaders, stabilityHeaders } from '../http/lifecycle-headers.ts';

export interface ListInventoryChangesHandlerDependencies {
  inventory: Pick<InventoryRepository, 'get'>;
  history: Pick<HistoryRepository, 'page'>;
  limiter: UsageLimiter;
}

/** GET /inventory/{petId}/changes?limit=&cursor=: a page of the pet's history, oldest first. */
export function createListInventoryChangesHandler({ inventory, history, limiter }: ListInventoryChangesHandlerDependencies) {
  const experimental = operationHeaders(stabilityHeaders('experimental'));
  return httpHandler({ guards: [planLimits(limiter), experimental] }, async (event) => {
    const query = event.queryStringParameters ?? {};
    return jsonResponse(
      200,
      await listInventoryChanges(inventory, history, petIdFromPath(event), { limit: query.limit, cursor: query.cursor }),
    );
  });
}
