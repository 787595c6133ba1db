import { setLowStockThreshold } from '../domain/low-stock.ts';
import { httpHandler } from '../http/http-handler.ts';
import { jsonResponse } from '../http/json.ts';
import { jsonBody } from '../http/json-body.ts';
import { petIdFromPath } from '../http/path-parameters.ts';
import { routeOf } from '../routes.ts';
import { planLimits } from '../http/plan-limits.ts';
import { LowStockThresholdUpdate } from '../http/request-body-validators.generated.ts';
import type { LowStockThresholdHandlerDependencies } from './low-stock-threshold-dependencies.ts';

/** PUT /inventory/{petId}/low-stock-threshold: sets the pet's threshold (setting it again is the same answer). */
export function createPutLowStockThresholdHandler({ thresholds, limiter }: LowStockThresholdHandlerDependencies) {
  return httpHandler(
    { route: routeOf('putLowStockThreshold'), guards: [planLimits(limiter)], body: jsonBody(LowStockThresholdUpdate) },
    async (event) => jsonResponse(200, await setLowStockThreshold(thresholds, petIdFromPath(event), event.body.threshold)),
  );
}
