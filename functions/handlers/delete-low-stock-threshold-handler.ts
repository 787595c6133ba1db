import { removeLowStockThreshold } from '../domain/low-stock.ts';
import { httpHandler } from '../http/http-handler.ts';
import { noContentResponse } from '../http/json.ts';
import { petIdFromPath } from '../http/path-parameters.ts';
import { routeOf } from '../routes.ts';
import { planLimits } from '../http/plan-limits.ts';
import type { LowStockThresholdHandlerDependencies } from './low-stock-threshold-dependencies.ts';

/** DELETE /inventory/{petId}/low-stock-threshold: 204, whether a threshold was set or not (a retried DELETE is no error). */
export function createDeleteLowStockThresholdHandler({ thresholds, limiter }: LowStockThresholdHandlerDependencies) {
  return httpHandler({ route: routeOf('deleteLowStockThreshold'), guards: [planLimits(limiter)] }, async (event) => {
    await removeLowStockThreshold(thresholds, petIdFromPath(event));
    return noContentResponse();
  });
}
