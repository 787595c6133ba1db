import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface StoreCall {
  /** DynamoDB's operation name: GetItem, UpdateItem, Scan, … */
  operation: string;
  table: string;
  kind: 'read' | 'write';
  capacityUnits: number;
  /** A conditional write whose condition failed: billed, though DynamoDB reports no capacity with the error. */
  conditionFailed: boolean;
  /** When it was sent and answered (performance.now()): calls in flight at once are one round trip. */
  startedAt: number;
  endedAt: number;
}

interface ConsumedCapacity {
  TableName?: string;
  CapacityUnits?: number;
}

const WRITE_OPERATIONS = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

/**
 * A DynamoDB write whose condition fails consumes write capacity as if it had written (at
 * least one unit), but the error carries no ConsumedCapacity: count the minimum.
 */
const FAILED_CONDITION_WRITE_UNITS = 1;

/**
 * Adds `ReturnConsumedCapacity: 'TOTAL'` to every command these clients send (a client
 * middleware: the service's code is unchanged) and records what each call consumed.
 */
export function recordStoreCalls(clients: readonly DynamoDBDocumentClient[]): StoreCall[] {
  const calls: StoreCall[] = [];
  for (const client of clients) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const operation = context.commandName?.replace(/Command$/, '') ?? 'unknown';
        const startedAt = performance.now();
        const sent = {
          operation,
          table: String((args.input as { TableName?: string }).TableName),
          kind: WRITE_OPERATIONS.has(operation) ? 'write' : 'read',
          startedAt,
        } as const;
        try {
          const result = await next({ ...args, input: { ...args.input, ReturnConsumedCapacity: 'TOTAL' } });
          const call = { ...sent, endedAt: performance.now() };
          const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
          // A transaction reports its capacity per table it touched: one record per table.
          if (Array.isArray(consumed)) {
            for (const each of consumed)
              calls.push({ ...call, table: String(each.TableName), capacityUnits: each.CapacityUnits ?? 0, conditionFailed: false });
          } else {
            calls.push({ ...call, capacityUnits: consumed?.CapacityUnits ?? 0, conditionFailed: false });
          }
          return result;
        } catch (error) {
          if ((error as Error).name === 'ConditionalCheckFailedException')
            calls.push({ ...sent, endedAt: performance.now(), capacityUnits: FAILED_CONDITION_WRITE_UNITS, conditionFailed: true });
          throw error;
        }
      },
      { step: 'initialize', name: 'benchConsumedCapacity' },
    );
  }
  return calls;
}

/** What a call is billed for. */
export type BilledCall = Pick<StoreCall, 'kind' | 'capacityUnits'>;

export function readUnits(calls: readonly BilledCall[]): number {
  return calls.filter((call) => call.kind === 'read').reduce((sum, call) => sum + call.capacityUnits, 0);
}

export function writeUnits(calls: readonly BilledCall[]): number {
  return calls.filter((call) => call.kind === 'write').reduce((sum, call) => sum + call.capacityUnits, 0);
}

/**
 * The round trips to the store one after the other that the calls took: calls in flight at the
 * same time (sent together, as Promise.all sends them) are one; a call sent after another
 * answered is the next.
 */
export function sequentialRoundTrips(calls: readonly StoreCall[]): number {
  let trips = 0;
  let answeredBy = Number.NEGATIVE_INFINITY;
  for (const call of [...calls].sort((a, b) => a.startedAt - b.startedAt)) {
    if (call.startedAt >= answeredBy) trips += 1;
    answeredBy = Math.max(answeredBy, call.endedAt);
  }
  return trips;
}
