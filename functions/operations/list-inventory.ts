import { listInventory as listEntries } from '../domain/inventory-service.ts';
import { negotiateEncoding } from '../http/content-encoding.ts';
import { TIMEOUT_MARGIN_MS } from '../http/http-handler.ts';
import { jsonArrayStream } from '../http/json-array-stream.ts';
import { defineOperation } from '../http/operation.ts';
import { inventoryPart } from '../parts/inventory.ts';

/**
 * GET /inventory (`?lowStock=true`: the reorder report), streamed: the entries go out page by page
 * as the store reads them, sorted by petId, in memory that does not grow with the inventory (see
 * jsonArrayStream). Every answer says it depends on Accept-Encoding, so that no cache serves a
 * compressed one to a client that did not ask.
 */
export const listInventory = defineOperation(
  'listInventory',
  {
    parts: { inventory: inventoryPart },
    headers: { Vary: 'Accept-Encoding' },
  },
  async ({ event, context, query }, { inventory }) => {
    const batches = listEntries(inventory, { lowStock: query.lowStock })[Symbol.asyncIterator]();
    // Read before the status is chosen: a store that cannot be read at all gets its 503 or 500.
    const first = await batches.next();
    return jsonArrayStream(first, batches, {
      // API Gateway may send null headers, which the header normalizer leaves null.
      encoding: negotiateEncoding(event.headers?.['accept-encoding']),
      deadlineAt: Date.now() + context.getRemainingTimeInMillis() - TIMEOUT_MARGIN_MS,
      functionRequestId: context.awsRequestId,
    });
  },
);
