import { removeLowStockThreshold } from '../domain/low-stock.ts';
import { noContentResponse } from '../http/json.ts';
import { defineOperation } from '../http/operation.ts';
import { thresholdsPart } from '../parts/thresholds.ts';

/** DELETE /inventory/{petId}/low-stock-threshold: 204, whether a threshold was set or not (a retried DELETE is no error). */
export const deleteLowStockThreshold = defineOperation(
  'deleteLowStockThreshold',
  {
    parts: { thresholds: thresholdsPart },
  },
  async ({ path }, { thresholds }) => {
    await removeLowStockThreshold(thresholds, path.petId);
    return noContentResponse();
  },
);
