import { listInventoryChanges as listChanges } from '../domain/inventory-history.ts';
import { jsonResponse } from '../http/json.ts';
import { defineOperation } from '../http/operation.ts';
import { historyPart } from '../parts/history.ts';
import { inventoryPart } from '../parts/inventory.ts';

/** GET /inventory/{petId}/changes?limit=&cursor=: a page of the pet's history, oldest first, read while the request is counted. */
export const listInventoryChanges = defineOperation(
  'listInventoryChanges',
  {
    parts: { inventory: inventoryPart, history: historyPart },
  },
  async ({ path, query }, { inventory, history }) => {
    return jsonResponse(200, await listChanges(inventory, history, path.petId, { limit: query.limit, cursor: query.cursor }));
  },
);
