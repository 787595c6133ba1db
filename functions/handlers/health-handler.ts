import type { FailedAuthenticationLimiter } from '../domain/failed-authentications.ts';
import { checkHealth } from '../domain/health.ts';
import type { InventoryRepository } from '../domain/inventory-service.ts';
import { httpHandler } from '../http/http-handler.ts';
import { jsonResponse } from '../http/json.ts';
import { uncountedRateLimit } from '../http/plan-limits.ts';

/** GET /health: 200 {"status":"ok","store":"ok"}, or 503 SERVICE_UNAVAILABLE (the Error body, Retry-After) when the store does not answer. */
export function createHealthHandler({
  inventory,
  failedAuthentications,
}: {
  inventory: Pick<InventoryRepository, 'get'>;
  failedAuthentications: Pick<FailedAuthenticationLimiter, 'uncountedState'>;
}) {
  return httpHandler({ guards: [uncountedRateLimit(() => failedAuthentications.uncountedState())] }, async () =>
    jsonResponse(200, await checkHealth(inventory)),
  );
}
