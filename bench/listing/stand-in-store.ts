/**
 * A stand-in for DynamoDB that holds pets 1…N (benchInventory's data) and answers what a
 * listing asks of it, over HTTP in DynamoDB's own wire format: each shard's Query pages in
 * petId order (Limit, ExclusiveStartKey, LastEvaluatedKey, ConsumedCapacity by DynamoDB's
 * item-size rules), and the plan-limit calls (the ban lookup finds none, the usage counter
 * counts one). Section 3 lists a million pets from it: DynamoDB Local would take minutes to
 * load them and more heap than the bench gives it. It runs in a process of its own, as a
 * real store would, and reports its endpoint over IPC; it stops when the bench disconnects.
 * Usage: node --import tsx bench/listing/stand-in-store.ts <pets> <bytes of an entry's other attributes>
 * (what a stored entry holds beyond its key, quantity, status and available: its version and last
 * change, which DynamoDB bills a Query for though the listing's projection leaves them out).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INVENTORY_SHARDS, inventoryKey } from '../../functions/adapters/dynamodb/stored-inventory-item.ts';
import { inventoryTable } from '../../functions/adapters/dynamodb/tables.ts';
import { STATUSES } from '../fixtures.ts';

export interface StandInStore {
  endpoint: string;
}

interface QueryInput {
  ExpressionAttributeValues: { ':shard': { N: string } };
  ExclusiveStartKey?: { petId: { N: string } };
  Limit?: number;
  ReturnConsumedCapacity?: string;
  ConsistentRead?: boolean;
}

const pets = Number(process.argv[2]);
const otherAttributeBytes = Number(process.argv[3]);
/** Each shard's petIds, ascending: the order of its sort key. */
const shardIds = new Map<number, Float64Array>();
{
  const lists = new Map(INVENTORY_SHARDS.map((shard) => [shard, [] as number[]]));
  for (let petId = 1; petId <= pets; petId += 1) lists.get(inventoryKey(BigInt(petId)).shard)!.push(petId);
  for (const [shard, ids] of lists) shardIds.set(shard, Float64Array.from(ids));
}

/** DynamoDB's size of a number: 1 byte per two significant digits, plus 1. */
const numberBytes = (value: number) => Math.ceil(String(value).length / 2) + 1;
const READ_UNIT_BYTES = 4_096;

/** The first index of `ids` above `after`. */
function firstAbove(ids: Float64Array, after: number): number {
  let [low, high] = [0, ids.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ids[middle]! <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}

function query(input: QueryInput): string {
  const shard = Number(input.ExpressionAttributeValues[':shard'].N);
  const ids = shardIds.get(shard)!;
  const start = input.ExclusiveStartKey ? firstAbove(ids, Number(input.ExclusiveStartKey.petId.N)) : 0;
  const end = Math.min(ids.length, start + (input.Limit ?? ids.length));
  const items: string[] = [];
  let bytes = 0;
  for (let index = start; index < end; index += 1) {
    const petId = ids[index]!;
    // benchInventory: pet `petId` is its (petId - 1)th entry.
    const quantity = (petId - 1) % 50;
    const status = STATUSES[(petId - 1) % STATUSES.length]!;
    items.push(`{"petId":{"N":"${petId}"},"quantity":{"N":"${quantity}"},"status":{"S":"${status}"}}`);
    // The whole item is read (the projection only trims the answer): its key, quantity, status,
    // available (its quantity: nothing is reserved) and the others.
    bytes +=
      inventoryTable.partitionKey.name.length +
      numberBytes(shard) +
      'petId'.length +
      numberBytes(petId) +
      'quantity'.length +
      numberBytes(quantity) +
      'status'.length +
      status.length +
      'available'.length +
      numberBytes(quantity) +
      otherAttributeBytes;
  }
  // As DynamoDB does, a page that reached the Limit says where it stopped, even when nothing follows.
  const last =
    input.Limit !== undefined && end - start === input.Limit
      ? `,"LastEvaluatedKey":{"shard":{"N":"${shard}"},"petId":{"N":"${ids[end - 1]}"}}`
      : '';
  const units = Math.max(1, Math.ceil(bytes / READ_UNIT_BYTES)) * (input.ConsistentRead ? 1 : 0.5);
  const consumed = input.ReturnConsumedCapacity ? `,"ConsumedCapacity":{"TableName":"stand-in","CapacityUnits":${units}}` : '';
  return `{"Items":[${items.join(',')}],"Count":${items.length},"ScannedCount":${items.length}${last}${consumed}}`;
}

/** The plan-limit calls: no ban, and the counter's first request of the minute and the day. */
const ANSWERS: Record<string, (input: unknown) => string> = {
  Query: (input) => query(input as QueryInput),
  GetItem: () => '{}',
  UpdateItem: () => '{"Attributes":{"requests":{"N":"1"},"minuteRequests":{"N":"1"}}}',
};

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request.setEncoding('utf8')) body += chunk;
  return body;
}

const server = createServer((request, response) => {
  readBody(request).then(
    (body) => {
      const operation = String(request.headers['x-amz-target']).split('.')[1] ?? '';
      const answer = ANSWERS[operation];
      if (!answer) {
        response
          .writeHead(400, { 'Content-Type': 'application/x-amz-json-1.0' })
          .end(`{"__type":"com.amazon.coral.validate#ValidationException","message":"The stand-in does not answer ${operation}"}`);
        return;
      }
      response.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.0' }).end(answer(JSON.parse(body)));
    },
    () => response.destroy(),
  );
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
process.send!({ endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } satisfies StandInStore);
process.on('disconnect', () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
});
