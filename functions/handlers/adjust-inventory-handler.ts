import { ApiError, type ErrorCode } from '../domain/errors.ts';
import type { InventoryAdjuster } from '../domain/inventory-adjustments.ts';
import type { UsageLimiter } from '../domain/usage-limits.ts';
import { changeAuthorFrom } from '../http/caller.ts';
import { httpHandler } from '../http/http-handler.ts';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyOf } from '../http/idempotency-key.ts';
import { jsonResponse } from '../http/json.ts';
import { jsonBody } from '../http/json-body.ts';
import { petIdFromPath } from '../http/path-parameters.ts';
import { InventoryAdjustment } from '../http/request-body-validators.generated.ts';
import { planLimits } from '../http/plan-limits.ts';
import { operationHeaders, stabilityHeaders } from '../http/versioning-headers.ts';

export interface AdjustInventoryHandlerDependencies {
  adjuster: InventoryAdjuster;
  limiter: UsageLimiter;
}

/** Marks an answer that repeats an earlier request's outcome instead of applying anything. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** POST /inventory/{petId}/adjustments: a relative change of stock, applied exactly once per Idempotency-Key. */
export function createAdjustInventoryHandler({ adjuster, limiter }: AdjustInventoryHandlerDependencies) {
  const experimental = operationHeaders(stabilityHeaders('experimental'));
  return httpHandler({ guards: [planLimits(limiter), experimental], body: jsonBody(InventoryAdjustment) }, async (event) => {
    const petId = petIdFromPath(event);
    const idempotencyKey = idempotencyKeyOf(event.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]);
    const { keyId, requestId } = changeAuthorFrom(event);
    const { outcome, replayed } = await adjuster.adjust({ callerId: keyId, requestId, idempotencyKey, petId, ...event.body });
    const headers: Record<string, string> = replayed ? { [REPLAYED_HEADER]: 'true' } : {};
    if ('item' in outcome) return jsonResponse(200, outcome.item, headers);
    const { status, code, message } = outcome.error;
    throw new ApiError(status, code as ErrorCode, message, headers);
  });
}
