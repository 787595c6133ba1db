import { getLowStockThreshold as getThreshold } from '../domain/low-stock.ts';
import { jsonResponse } from '../http/json.ts';
import { defineOperation } from '../http/operation.ts';
import { thresholdsPart } from '../parts/thresholds.ts';

/** GET /inventory/{petId}/low-stock-threshold: the pet's threshold, read consistently while the request is counted. */
export const getLowStockThreshold = defineOperation(
  'getLowStockThreshold',
  {
    parts: { thresholds: thresholdsPart },
  },
  async ({ path }, { thresholds }) => {
    return jsonResponse(200, await getThreshold(thresholds, path.petId));
  },
);
