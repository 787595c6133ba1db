import { listChangeFeed } from '../domain/change-feed.ts';
import { jsonResponse } from '../http/json.ts';
import { defineOperation } from '../http/operation.ts';
import { changeFeedPart } from '../parts/change-feed.ts';

/** GET /inventory/changes?cursor=&limit=: every pet's changes after the cursor, in the feed's one order, read while the request is counted. */
export const listInventoryChangeFeed = defineOperation(
  'listInventoryChangeFeed',
  {
    parts: { changeFeed: changeFeedPart },
  },
  async ({ query }, { changeFeed }) => {
    return jsonResponse(200, await listChangeFeed(changeFeed, { cursor: query.cursor, limit: query.limit }));
  },
);
