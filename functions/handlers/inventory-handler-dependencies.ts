import type { InventoryRepository } from '../domain/inventory-service.ts';
import type { UsageLimiter } from '../domain/usage-limits.ts';

/** What the handlers of the inventory's own operations (list, read, update) are built from. */
export interface InventoryHandlerDependencies {
  inventory: InventoryRepository;
  limiter: UsageLimiter;
}
