import { listChangeFeed, type ChangeFeedRepository } from '../domain/change-feed.ts';
import type { UsageLimiter } from '../domain/usage-limits.ts';
import { httpHandler } from '../http/http-handler.ts';
import { jsonResponse } from '../http/json.ts';
import { planLimits } from '../http/plan-limits.ts';
import { operationHeaders, stabilityHeaders } from '../http/lifecycle-headers.ts';

export interface ListInventoryChangeFeedHandlerDependencies {
  changeFeed: Pick<ChangeFeedRepository, 'page'>;
  limiter: UsageLimiter;
}

/** GET /inventory/changes?cursor=&limit=: every pet's changes after the cursor, in the feed's one order. */
export function createListInventoryChangeFeedHandler({ changeFeed, limiter }: ListInventoryChangeFeedHandlerDependencies) {
  const experimental = operationHeaders(stabilityHeaders('experimental'));
  return httpHandler({ guards: [planLimits(limiter), experimental] }, async (event) => {
    const query = event.queryStringParameters ?? {};
    return jsonResponse(200, await listChangeFeed(changeFeed, { cursor: query.cursor, limit: query.limit }));
  });
}
