import { setLowStockThreshold } from '../domain/low-stock.ts';
import { jsonResponse } from '../http/json.ts';
import { jsonBody } from '../http/json-body.ts';
import { defineOperation } from '../http/operation.ts';
import { LowStockThresholdUpdate } from '../http/request-body-validators.generated.ts';
import { thresholdsPart } from '../parts/thresholds.ts';

/** PUT /inventory/{petId}/low-stock-threshold: sets the pet's threshold (setting it again is the same answer). */
export const putLowStockThreshold = defineOperation(
  'putLowStockThreshold',
  {
    parts: { thresholds: thresholdsPart },
    body: jsonBody(LowStockThresholdUpdate),
  },
  async ({ path, body }, { thresholds }) => {
    return jsonResponse(200, await setLowStockThreshold(thresholds, path.petId, body.threshold));
  },
);
