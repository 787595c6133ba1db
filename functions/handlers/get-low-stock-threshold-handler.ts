import { getLowStockThreshold } from '../domain/low-stock.ts';
import { httpHandler } from '../http/http-handler.ts';
import { jsonResponse } from '../http/json.ts';
import { operationHeaders, stabilityHeaders } from '../http/lifecycle-headers.ts';
import { petIdFromPath } from '../http/path-parameters.ts';
import { planLimitedRead } from '../http/plan-limits.ts';
import type { LowStockThresholdHandlerDependencies } from './low-stock-threshold-dependencies.ts';

/** GET /inventory/{petId}/low-stock-threshold: the pet's threshold, read consistently while the request is counted. */
export function createGetLowStockThresholdHandler({ thresholds, limiter }: LowStockThresholdHandlerDependencies) {
  const experimental = operationHeaders(stabilityHeaders('experimental'));
  const counted = planLimitedRead(limiter, (event) => getLowStockThreshold(thresholds, petIdFromPath(event)));
  return httpHandler({ guards: [counted.guard, experimental] }, async (event) => jsonResponse(200, await counted.result(event)));
}
