import { listChangeFeed, type ChangeFeedRepository } from '../domain/change-feed.ts';
import type { UsageLimiter } from '../domain/usage-limits.ts';
import { httpHandler } from '../http/http-handler.ts';
import { jsonResponse } from '../http/json.ts';
import { planLimitedRead } from '../http/plan-limits.ts';
import { routeOf } from '../routes.ts';

export interface ListInventoryChangeFeedHandlerDependencies {
  changeFeed: Pick<ChangeFeedRepository, 'page'>;
  limiter: UsageLimiter;
}

/** GET /inventory/changes?cursor=&limit=: every pet's changes after the cursor, in the feed's one order, read while the request is counted. */
export function createListInventoryChangeFeedHandler({ changeFeed, limiter }: ListInventoryChangeFeedHandlerDependencies) {
  const counted = planLimitedRead(limiter, (event) => {
    const query = event.queryStringParameters ?? {};
    return listChangeFeed(changeFeed, { cursor: query.cursor, limit: query.limit });
  });
  return httpHandler({ route: routeOf('listInventoryChangeFeed'), guards: [counted.guard] }, async (event) =>
    jsonResponse(200, await counted.result(event)),
  );
}
