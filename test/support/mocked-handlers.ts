import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { createIdempotentWriteRepository } from '../../functions/adapters/dynamodb/idempotent-write-repository.ts';
import { createDocumentClient } from '../../functions/adapters/dynamodb/document-client.ts';
import { createInventoryRepository } from '../../functions/adapters/dynamodb/inventory-repository.ts';
import { createUsageCounterRepository } from '../../functions/adapters/dynamodb/usage-counter-repository.ts';
import { IdempotentWriter } from '../../functions/domain/idempotent-writes.ts';
import { DEFAULT_BAN_POLICY, PlanLimiter, type BanPolicy } from '../../functions/domain/plan-limiter.ts';
import { adjustInventory } from '../../functions/operations/adjust-inventory.ts';
import { getInventoryItem } from '../../functions/operations/get-inventory-item.ts';
import { listInventory } from '../../functions/operations/list-inventory.ts';
import { updateInventory } from '../../functions/operations/update-inventory.ts';
import type { ResponseHead } from '../../functions/http/answer-headers.ts';
import { collectStreamed } from '../../local/lambda-streaming.ts';

export const INVENTORY_TABLE = 'inventory-table';
export const COUNTERS_TABLE = 'counters-table';
export const IDEMPOTENCY_TABLE = 'idempotency-table';

/** A streamed answer as the client receives it: the body as text and as bytes, and whether it was cut. */
export interface StreamedAnswer extends ResponseHead {
  body: string;
  bytes: Buffer;
  aborted?: unknown;
}

/**
 * The inventory handlers over the real repositories and limiter, with a pinned clock. Meant
 * for tests that mock DynamoDBDocumentClient: the endpoint is never reached. The listing is
 * streamed; `list` reads its whole answer as Lambda's runtime and API Gateway pass it on.
 */
export function inventoryHandlers(now: number, banPolicy: BanPolicy = DEFAULT_BAN_POLICY) {
  const client = createDocumentClient({ endpoint: 'http://127.0.0.1:1' });
  const dependencies = {
    inventory: createInventoryRepository(client, INVENTORY_TABLE),
    limiter: new PlanLimiter(createUsageCounterRepository(client, COUNTERS_TABLE), banPolicy, () => now),
    // No waiting between rounds: the tests decide what each round meets.
    idempotentWriter: new IdempotentWriter(
      createIdempotentWriteRepository(client, { inventoryTable: INVENTORY_TABLE, idempotencyRecordsTable: IDEMPOTENCY_TABLE }),
      () => now,
      async () => undefined,
    ),
  };
  const streamedList = listInventory.handler(dependencies);
  const list = async (event: APIGatewayProxyEvent, context: Context): Promise<StreamedAnswer> => {
    const answer = await collectStreamed(streamedList, event, context);
    return { ...answer, body: answer.body.toString('utf8'), bytes: answer.body };
  };
  return {
    list,
    /** The listing as Lambda's runtime calls it, with a response stream of the caller's. */
    streamedList,
    getItem: getInventoryItem.handler(dependencies),
    update: updateInventory.handler(dependencies),
    adjust: adjustInventory.handler(dependencies),
  };
}
