import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, NumberValue, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

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

/** DynamoDB's item size rules: names and strings in UTF-8 bytes, a number about one byte per two digits and one more, 1 byte for a boolean or null, 3 bytes per map or list and 1 per element, a set its elements. */
export function itemBytes(item: Record<string, unknown>): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueBytes(value), 0);
}

function valueBytes(value: unknown): number {
  if (value === null || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (value instanceof Uint8Array) return value.byteLength;
  if (typeof value === 'number' || typeof value === 'bigint' || value instanceof NumberValue) {
    const digits =
      String(value)
        .replace(/^-|\.|e.*$/g, '')
        .replace(/^0+/, '').length || 1;
    return Math.ceil(digits / 2) + 1;
  }
  if (value instanceof Set) return [...value].reduce((sum: number, each) => sum + valueBytes(each), 0);
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, each) => sum + valueBytes(each) + 1, 0);
  if (typeof value === 'object')
    return 3 + Object.entries(value).reduce((sum, [name, each]) => sum + Buffer.byteLength(name) + valueBytes(each) + 1, 0);
  throw new Error(`no size rule for ${typeof value}`);
}

/** An item written: 1 write unit per KB, at least 1 (doubled in a transaction). */
export const writeUnitsOf = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));
/** Items read in one call (a Query's page: their sizes summed): 1 read unit per 4 KB, at least 1; half for an eventually consistent read. */
export const readUnitsOf = (bytes: number, consistent: boolean) => Math.max(1, Math.ceil(bytes / 4096)) / (consistent ? 1 : 2);

/** One item a call reads or writes, and how DynamoDB bills it. */
interface ItemAccess {
  table: string;
  key: Record<string, unknown>;
  /** Read strongly consistent (a read's units), or in a transaction (twice a write's or a read's units). */
  consistent: boolean;
  transactional: boolean;
}

/** The parts of a command's input that name its items. */
interface Input {
  TableName: string;
  Key?: Record<string, unknown>;
  Keys?: Record<string, unknown>[];
  Item?: Record<string, unknown>;
  ConsistentRead?: boolean;
  RequestItems?: Record<string, Input | Record<'PutRequest' | 'DeleteRequest', Input>[]>;
  TransactItems?: Record<string, Input>[];
}

/**
 * Computes what a call is billed on AWS from the sizes of the items it reads and writes, read
 * whole (as DynamoDB bills them, whatever the call's projection) through a client of its own:
 * DynamoDB Local's ConsumedCapacity does not follow AWS's billing for transactions.
 */
function itemSizer(client: DynamoDBDocumentClient) {
  const keyNames = new Map<string, Promise<string[]>>();
  const keyNamesOf = (table: string) => {
    if (!keyNames.has(table))
      keyNames.set(
        table,
        client
          .send(new DescribeTableCommand({ TableName: table }))
          .then(({ Table }) => (Table?.KeySchema ?? []).map((part) => part.AttributeName!)),
      );
    return keyNames.get(table)!;
  };
  const keyOf = async (table: string, item: Record<string, unknown>) =>
    Object.fromEntries((await keyNamesOf(table)).map((name) => [name, item[name]]));
  const written = async (table: string, action: Input, transactional: boolean): Promise<ItemAccess> => ({
    table,
    key: action.Key ?? (await keyOf(table, action.Item!)),
    consistent: true,
    transactional,
  });

  return {
    /** The items the call reads or writes; none for a Query or a Scan, whose pages DynamoDB Local bills by the same rule as AWS. */
    async accessesOf(operation: string, input: Input): Promise<ItemAccess[]> {
      switch (operation) {
        case 'GetItem':
          return [{ table: input.TableName, key: input.Key!, consistent: input.ConsistentRead === true, transactional: false }];
        case 'BatchGetItem':
          return Object.entries(input.RequestItems as Record<string, Input>).flatMap(([table, { Keys, ConsistentRead }]) =>
            Keys!.map((key) => ({ table, key, consistent: ConsistentRead === true, transactional: false })),
          );
        case 'PutItem':
        case 'UpdateItem':
        case 'DeleteItem':
          return [await written(input.TableName, input, false)];
        case 'BatchWriteItem':
          return Promise.all(
            Object.entries(input.RequestItems as Record<string, Record<'PutRequest' | 'DeleteRequest', Input>[]>).flatMap(
              ([table, requests]) => requests.map((request) => written(table, request.PutRequest ?? request.DeleteRequest, false)),
            ),
          );
        case 'TransactWriteItems':
          return Promise.all(
            input.TransactItems!.map((action) => {
              const [write] = Object.values(action);
              return written(write!.TableName, write!, true);
            }),
          );
        default:
          return [];
      }
    },
    /** Each item's size as stored now, 0 if there is none. */
    bytesOf: (accesses: readonly ItemAccess[]) =>
      Promise.all(
        accesses.map(async ({ table, key }) => {
          const { Item } = await client.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }));
          return Item ? itemBytes(Item) : 0;
        }),
      ),
  };
}

/**
 * A call's units by AWS's rules, one record per table as DynamoDB reports a transaction's: a read
 * per item (1 per 4 KB, half if eventually consistent), a write per item by the larger of its sizes
 * before and after (1 per KB), each doubled in a transaction. A write refused by its condition is
 * billed as if it had written.
 */
function computedCalls(
  call: Omit<StoreCall, 'table' | 'capacityUnits'>,
  accesses: readonly ItemAccess[],
  before: readonly number[],
  after: readonly number[],
): StoreCall[] {
  const byTable = new Map<string, number>();
  accesses.forEach((access, index) => {
    const bytes = Math.max(before[index]!, after[index]!);
    const units = (call.kind === 'write' ? writeUnitsOf(bytes) : readUnitsOf(bytes, access.consistent)) * (access.transactional ? 2 : 1);
    byTable.set(access.table, (byTable.get(access.table) ?? 0) + units);
  });
  return [...byTable].map(([table, capacityUnits]) => ({ ...call, table, capacityUnits }));
}

/**
 * Adds `ReturnConsumedCapacity: 'TOTAL'` to every command these clients send (a client
 * middleware: the service's code is unchanged) and records what each call consumed. With
 * `sizer`, a client the middleware is not on, every call that names its items is billed as
 * computed from their sizes (itemSizer), read before and after the call: slower calls, the same
 * round trips.
 */
export function recordStoreCalls(clients: readonly DynamoDBDocumentClient[], sizer?: DynamoDBDocumentClient): StoreCall[] {
  const calls: StoreCall[] = [];
  const sizes = sizer && itemSizer(sizer);
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
        const accesses = sizes ? await sizes.accessesOf(operation, args.input as unknown as Input) : [];
        const before = sizes && sent.kind === 'write' ? await sizes.bytesOf(accesses) : [];
        const computed = async (conditionFailed: boolean) => {
          const after = conditionFailed ? before : await sizes!.bytesOf(accesses);
          calls.push(
            ...computedCalls({ ...sent, endedAt: performance.now(), conditionFailed }, accesses, before.length > 0 ? before : after, after),
          );
        };
        try {
          const result = await next({ ...args, input: { ...args.input, ReturnConsumedCapacity: 'TOTAL' } });
          if (accesses.length > 0) {
            await computed(false);
            return result;
          }
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
          const refused = (error as Error).name;
          if (accesses.length > 0 && (refused === 'ConditionalCheckFailedException' || refused === 'TransactionCanceledException'))
            await computed(true);
          else if (refused === 'ConditionalCheckFailedException')
            calls.push({ ...sent, endedAt: performance.now(), capacityUnits: FAILED_CONDITION_WRITE_UNITS, conditionFailed: true });
          throw error;
        }
      },
      { step: 'initialize', name: 'benchConsumedCapacity' },
    );
  }
  return calls;
}

/** Each call once: a transaction is recorded once per table it touched, with the same start. */
export function distinctCalls(calls: readonly StoreCall[]): StoreCall[] {
  const seen = new Set<string>();
  return calls.filter((call) => {
    const id = `${call.operation}@${call.startedAt}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** The calls by operation, each once (`GetItem ×2, TransactWriteItems ×1`), a refused write apart: for a table's cell. */
export function describeCalls(calls: readonly StoreCall[]): string {
  const counts = new Map<string, number>();
  for (const call of distinctCalls(calls)) {
    const name = `${call.operation}${call.conditionFailed ? ' (condition failed)' : ''}`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, count]) => `${name} ×${count}`).join(', ') || '—';
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
