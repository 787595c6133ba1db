import { listInventory } from '../domain/inventory-service.ts';
import { negotiateEncoding } from '../http/content-encoding.ts';
import { streamedHttpHandler, TIMEOUT_MARGIN_MS } from '../http/http-handler.ts';
import { jsonArrayStream } from '../http/json-array-stream.ts';
import { planLimits } from '../http/plan-limits.ts';
import { operationHeaders } from '../http/lifecycle-headers.ts';
import { routeOf } from '../routes.ts';
import type { InventoryHandlerDependencies } from './inventory-handler-dependencies.ts';

// Each handler has a module of its own, so that a function's bundle holds only what it runs
// (listing needs no request-body validation, so no zod: about 18 ms less at cold start).

/**
 * GET /inventory (`?lowStock=true`: the reorder report), streamed: the entries go out page by page as the store reads them, sorted
 * by petId, in memory that does not grow with the inventory (see jsonArrayStream).
 */
export function createListInventoryHandler({ inventory, limiter }: InventoryHandlerDependencies) {
  // Every answer says it depends on Accept-Encoding, so that no cache serves a compressed one to a client that did not ask.
  const vary = operationHeaders({ Vary: 'Accept-Encoding' });
  return streamedHttpHandler({ route: routeOf('listInventory'), guards: [planLimits(limiter), vary] }, async (event, context) => {
    const batches = listInventory(inventory, { lowStock: event.queryStringParameters?.lowStock })[Symbol.asyncIterator]();
    // Read before the status is chosen: a store that cannot be read at all gets its 503 or 500.
    const first = await batches.next();
    return jsonArrayStream(first, batches, {
      // API Gateway may send null headers, which the header normalizer leaves null.
      encoding: negotiateEncoding(event.headers?.['accept-encoding']),
      deadlineAt: Date.now() + context.getRemainingTimeInMillis() - TIMEOUT_MARGIN_MS,
      functionRequestId: context.awsRequestId,
    });
  });
}
