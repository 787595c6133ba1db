import { listInventory, updateInventory, type InventoryRepository } from '../domain/inventory-service.ts';
import { InventoryUpdate } from '../domain/schemas.ts';
import type { UsageLimiter } from '../domain/usage-limits.ts';
import { httpHandler } from '../http/http-handler.ts';
import { jsonResponse } from '../http/json.ts';
import { petIdFromPath } from '../http/path-parameters.ts';
import { deliverable } from '../http/response-size.ts';
import { planLimits } from '../http/plan-limits.ts';
import { operationHeaders, stabilityHeaders } from '../http/versioning-headers.ts';

export interface InventoryHandlerDependencies {
  inventory: InventoryRepository;
  limiter: UsageLimiter;
}

export function createListInventoryHandler({ inventory, limiter }: InventoryHandlerDependencies) {
  return httpHandler({ guards: [planLimits(limiter)] }, async () => {
    const items = await listInventory(inventory);
    return deliverable(jsonResponse(200, items), items.length);
  });
}

export function createUpdateInventoryHandler({ inventory, limiter }: InventoryHandlerDependencies) {
  const experimental = operationHeaders(stabilityHeaders('experimental'));
  return httpHandler({ guards: [planLimits(limiter), experimental], body: InventoryUpdate }, async (event) =>
    jsonResponse(200, await updateInventory(inventory, petIdFromPath(event), event.body)),
  );
}
