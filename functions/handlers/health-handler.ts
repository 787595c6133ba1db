import { checkHealth } from '../domain/health.ts';
import type { InventoryRepository } from '../domain/inventory-service.ts';
import { httpHandler } from '../http/http-handler.ts';
import { jsonResponse } from '../http/json.ts';

/** GET /health: 200 {"status":"ok","store":"ok"}, or 503 SERVICE_UNAVAILABLE (the Error body, Retry-After) when the store does not answer. */
export function createHealthHandler({ inventory }: { inventory: Pick<InventoryRepository, 'get'> }) {
  return httpHandler({}, async () => jsonResponse(200, await checkHealth(inventory)));
}
