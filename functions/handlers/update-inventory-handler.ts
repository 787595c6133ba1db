import type { IdempotentWriter } from '../domain/idempotent-writes.ts';
import { updateInventory } from '../domain/inventory-service.ts';
import { changeAuthorFrom } from '../http/caller.ts';
import { entityTagHeader, ifMatchVersions } from '../http/entity-tags.ts';
import { httpHandler } from '../http/http-handler.ts';
import { idempotentAnswer, optionalIdempotencyKeyFrom } from '../http/idempotent-answers.ts';
import { jsonResponse } from '../http/json.ts';
import { jsonBody } from '../http/json-body.ts';
import { petIdFromPath } from '../http/path-parameters.ts';
import { planLimits } from '../http/plan-limits.ts';
import { InventoryUpdate } from '../http/request-body-validators.generated.ts';
import { routeOf } from '../routes.ts';
import type { InventoryHandlerDependencies } from './inventory-handler-dependencies.ts';

/**
 * PATCH /inventory/{petId}: a set or compare-and-set, under If-Match when sent. With an
 * Idempotency-Key it is written once per key by the idempotentWriter, as adjustments are, and its answer
 * replayed to every retry; without one, by one conditional write.
 */
export function createUpdateInventoryHandler({
  inventory,
  idempotentWriter,
  limiter,
}: InventoryHandlerDependencies & { idempotentWriter: IdempotentWriter }) {
  return httpHandler(
    { route: routeOf('updateInventory'), guards: [planLimits(limiter)], body: jsonBody(InventoryUpdate) },
    async (event, _context, deadline) => {
      const petId = petIdFromPath(event);
      const versions = ifMatchVersions(event);
      const idempotencyKey = optionalIdempotencyKeyFrom(event);
      const author = changeAuthorFrom(event);
      if (idempotencyKey === undefined) {
        const { item, version } = await updateInventory(inventory, petId, event.body, author, versions);
        return jsonResponse(200, item, entityTagHeader(version));
      }
      return idempotentAnswer(
        await idempotentWriter.update({ ...author, idempotencyKey, petId, update: event.body, versions, deadline }),
        ({ item }) => item,
        ({ version }) => (version === undefined ? {} : entityTagHeader(version)),
      );
    },
  );
}
