import { idempotentAnswer } from '../http/idempotent-answers.ts';
import { jsonBody } from '../http/json-body.ts';
import { defineOperation } from '../http/operation.ts';
import { InventoryAdjustmentBatch } from '../http/request-body-validators.generated.ts';
import { idempotentWriterPart } from '../parts/idempotent-writer.ts';

/** POST /inventory/adjustments: relative changes of several pets, all or none, exactly once per Idempotency-Key. */
export const adjustInventoryBatch = defineOperation(
  'adjustInventoryBatch',
  {
    parts: { idempotentWriter: idempotentWriterPart },
    body: jsonBody(InventoryAdjustmentBatch),
  },
  async ({ body, idempotencyKey, author, deadline }, { idempotentWriter }) => {
    const result = await idempotentWriter.adjustBatch({ ...author, idempotencyKey, changes: body.adjustments, deadline });
    return idempotentAnswer(result, ({ items }) => ({ items }));
  },
);
