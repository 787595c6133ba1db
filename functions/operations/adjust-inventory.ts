import { entityTagHeader } from '../http/entity-tags.ts';
import { idempotentAnswer } from '../http/idempotent-answers.ts';
import { jsonBody } from '../http/json-body.ts';
import { defineOperation } from '../http/operation.ts';
import { InventoryAdjustment } from '../http/request-body-validators.generated.ts';
import { idempotentWriterPart } from '../parts/idempotent-writer.ts';

/** POST /inventory/{petId}/adjustments: a relative change of stock, applied exactly once per Idempotency-Key. */
export const adjustInventory = defineOperation(
  'adjustInventory',
  {
    parts: { idempotentWriter: idempotentWriterPart },
    body: jsonBody(InventoryAdjustment),
  },
  async ({ path, body, idempotencyKey, author, deadline }, { idempotentWriter }) => {
    return idempotentAnswer(
      await idempotentWriter.adjust({ ...author, idempotencyKey, petId: path.petId, ...body, deadline }),
      ({ item }) => item,
      // An answer recorded before versions existed names none, so it carries no ETag.
      ({ version }) => (version === undefined ? {} : entityTagHeader(version)),
    );
  },
);
