import { getInventoryItem as getEntry } from '../domain/inventory-service.ts';
import { entityTagHeader } from '../http/entity-tags.ts';
import { jsonResponse } from '../http/json.ts';
import { defineOperation } from '../http/operation.ts';
import { inventoryPart } from '../parts/inventory.ts';

/** GET /inventory/{petId}: one entry, strongly consistent, as a compare-and-set starts from; read while the request is counted. */
export const getInventoryItem = defineOperation(
  'getInventoryItem',
  {
    parts: { inventory: inventoryPart },
  },
  async ({ path }, { inventory }) => {
    const { item, version } = await getEntry(inventory, path.petId);
    return jsonResponse(200, item, entityTagHeader(version));
  },
);
