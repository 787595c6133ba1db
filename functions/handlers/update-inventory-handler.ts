import { updateInventory } from '../domain/inventory-service.ts';
import { changeAuthorFrom } from '../http/caller.ts';
import { httpHandler } from '../http/http-handler.ts';
import { jsonResponse } from '../http/json.ts';
import { jsonBody } from '../http/json-body.ts';
import { petIdFromPath } from '../http/path-parameters.ts';
import { planLimits } from '../http/plan-limits.ts';
import { InventoryUpdate } from '../http/request-body-validators.generated.ts';
import { operationHeaders, stabilityHeaders } from '../http/versioning-headers.ts';
import type { InventoryHandlerDependencies } from './inventory-handler-dependencies.ts';

export function createUpdateInventoryHandler({ inventory, limiter }: InventoryHandlerDependencies) {
  const experimental = operationHeaders(stabilityHeaders('experimental'));
  return httpHandler({ guards: [planLimits(limiter), experimental], body: jsonBody(InventoryUpdate) }, async (event) =>
    jsonResponse(200, await updateInventory(inventory, petIdFromPath(event), event.body, changeAuthorFrom(event))),
  );
}
