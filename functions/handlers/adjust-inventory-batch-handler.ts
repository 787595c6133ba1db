import { changeAuthorFrom } from '../http/caller.ts';
import { httpHandler } from '../http/http-handler.ts';
import { idempotencyKeyFrom, idempotentAnswer } from '../http/idempotent-answers.ts';
import { jsonBody } from '../http/json-body.ts';
import { InventoryAdjustmentBatch } from '../http/request-body-validators.generated.ts';
import { planLimits } from '../http/plan-limits.ts';
import { routeOf } from '../routes.ts';
import type { AdjustInventoryHandlerDependencies } from './adjust-inventory-handler.ts';

/** POST /inventory/adjustments: relative changes of several pets, all or none, exactly once per Idempotency-Key. */
export function createAdjustInventoryBatchHandler({ idempotentWriter, limiter }: AdjustInventoryHandlerDependencies) {
  return httpHandler(
    {
      route: routeOf('adjustInventoryBatch'),
      guards: [planLimits(limiter)],
      body: jsonBody(InventoryAdjustmentBatch),
    },
    async (event, _context, deadline) => {
      const idempotencyKey = idempotencyKeyFrom(event);
      const { keyId, requestId } = changeAuthorFrom(event);
      const result = await idempotentWriter.adjustBatch({ keyId, requestId, idempotencyKey, changes: event.body.adjustments, deadline });
      return idempotentAnswer(result, ({ items }) => ({ items }));
    },
  );
}
