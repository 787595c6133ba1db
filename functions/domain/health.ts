import { StoreUnavailableError } from './errors.ts';
import { MAX_INT64 } from './pet-id.ts';
import type { InventoryRepository } from './inventory-service.ts';

/** What GET /v1/health answers while the service and its store work. */
export interface Health {
  status: 'ok';
  store: 'ok';
}

/** A probe waits no longer than this: a health check that hangs is worse than one that says no. */
export const HEALTH_PROBE_TIMEOUT_MS = 1_000;

/**
 * Reads one entry (any id will do: a read of a missing item answers as fast and costs as little),
 * so the store is known to answer reads of the inventory. Throws StoreUnavailableError when it
 * fails or takes longer than the timeout.
 */
export async function checkHealth(inventory: Pick<InventoryRepository, 'get'>, timeoutMs = HEALTH_PROBE_TIMEOUT_MS): Promise<Health> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailableError({ cause: new Error(`no answer within ${timeoutMs} ms`) })), timeoutMs);
  });
  try {
    await Promise.race([inventory.get(MAX_INT64), late]);
  } catch (error) {
    throw error instanceof StoreUnavailableError ? error : new StoreUnavailableError({ cause: error });
  } finally {
    clearTimeout(timer);
  }
  return { status: 'ok', store: 'ok' };
}
