import { getLowStockThreshold } from '../domain/low-stock.ts';
import { httpHandler } from '../http/http-handler.ts';
import { jsonResponse } from '../http/json.ts';
import { petIdFromPath } from '../http/path-parameters.ts';
import { routeOf } from '../routes.ts';
import { planLimitedRead } from '../http/plan-limits.ts';
import type { LowStockThresholdHandlerDependencies } from './low-stock-threshold-dependencies.ts';

/** GET /inventory/{petId}/low-stock-threshold: the pet's threshold, read consistently while the request is counted. */
export function createGetLowStockThresholdHandler({ thresholds, limiter }: LowStockThresholdHandlerDependencies) {
  const counted = planLimitedRead(limiter, (event) => getLowStockThreshold(thresholds, petIdFromPath(event)));
  return httpHandler({ route: routeOf('getLowStockThreshold'), guards: [counted.guard] }, async (event) =>
    jsonResponse(200, await counted.result(event)),
  );
}
