import { updateInventory as updateEntry } from '../domain/inventory-service.ts';
import { entityTagHeader, ifMatchVersions } from '../http/entity-tags.ts';
import { idempotentAnswer } from '../http/idempotent-answers.ts';
import { jsonResponse } from '../http/json.ts';
import { jsonBody } from '../http/json-body.ts';
import { defineOperation } from '../http/operation.ts';
import { InventoryUpdate } from '../http/request-body-validators.generated.ts';
import { idempotentWriterPart } from '../parts/idempotent-writer.ts';
import { inventoryPart } from '../parts/inventory.ts';

/**
 * PATCH /inventory/{petId}: a set or compare-and-set, under If-Match when sent. With an
 * Idempotency-Key it is written once per key by the idempotentWriter, as adjustments are, and its
 * answer replayed to every retry; without one, by one conditional write.
 */
export const updateInventory = defineOperation(
  'updateInventory',
  {
    parts: { inventory: inventoryPart, idempotentWriter: idempotentWriterPart },
    body: jsonBody(InventoryUpdate),
  },
  async ({ event, path, body, idempotencyKey, author, deadline }, { inventory, idempotentWriter }) => {
    const versions = ifMatchVersions(event);
    if (idempotencyKey === undefined) {
      const { item, version } = await updateEntry(inventory, path.petId, body, author, versions);
      return jsonResponse(200, item, entityTagHeader(version));
    }
    return idempotentAnswer(
      await idempotentWriter.update({ ...author, idempotencyKey, petId: path.petId, update: body, versions, deadline }),
      ({ item }) => item,
      // An answer recorded before versions existed names none, so it carries no ETag.
      ({ version }) => (version === undefined ? {} : entityTagHeader(version)),
    );
  },
);
