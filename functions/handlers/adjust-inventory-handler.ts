import type { IdempotentWriter } from '../domain/idempotent-writes.ts';
import type { UsageLimiter } from '../domain/usage-limits.ts';
import { changeAuthorFrom } from '../http/caller.ts';
import { httpHandler } from '../http/http-handler.ts';
import { entityTagHeader } from '../http/entity-tags.ts';
import { idempotencyKeyFrom, idempotentAnswer } from '../http/idempotent-answers.ts';
import { jsonBody } from '../http/json-body.ts';
import { petIdFromPath } from '../http/path-parameters.ts';
import { InventoryAdjustment } from '../http/request-body-validators.generated.ts';
import { planLimits } from '../http/plan-limits.ts';
import { routeOf } from '../routes.ts';

export interface AdjustInventoryHandlerDependencies {
  idempotentWriter: IdempotentWriter;
  limiter: UsageLimiter;
}

/** POST /inventory/{petId}/adjustments: a relative change of stock, applied exactly once per Idempotency-Key. */
export function createAdjustInventoryHandler({ idempotentWriter, limiter }: AdjustInventoryHandlerDependencies) {
  return httpHandler(
    { route: routeOf('adjustInventory'), guards: [planLimits(limiter)], body: jsonBody(InventoryAdjustment) },
    async (event, _context, deadline) => {
      const petId = petIdFromPath(event);
      const idempotencyKey = idempotencyKeyFrom(event);
      const { keyId, requestId } = changeAuthorFrom(event);
      return idempotentAnswer(
        await idempotentWriter.adjust({ keyId, requestId, idempotencyKey, petId, ...event.body, deadline }),
        ({ item }) => item,
        // An answer recorded before versions existed names none, so it carries no ETag.
        ({ version }) => (version === undefined ? {} : entityTagHeader(version)),
      );
    },
  );
}
