import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { ApiKeyRecord } from '../functions/domain/api-keys.ts';
import type { InventoryCount } from '../functions/domain/schemas.ts';
import { INVENTORY_SHARDS, inventoryKey } from '../functions/adapters/dynamodb/stored-inventory-item.ts';

/** A DynamoDB operation's name as the wire protocol carries it in X-Amz-Target (GetItem, UpdateItem, Query, …). */
export type Operation = string;

/**
 * What the stub answers, by operation and table: DynamoDB's JSON response, in wire format, or
 * a function of the request that picks one (say, the page of the shard a Query asks for).
 * Each answer object is encoded once, however often it is given.
 */
export type StubAnswers = Record<Operation, Record<string, object | ((request: Record<string, unknown>) => object)>>;

interface WireRequest {
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * Makes a document client answer from memory, instantly: only the HTTP handler is replaced,
 * so everything the SDK does in the process (marshalling, its middleware, signing, parsing
 * the response) still runs and is measured; only the network and DynamoDB are gone. Returns the
 * calls answered so far (`<operation> <table>`), which the caller may read and clear.
 */
export function answerFromMemory(clients: readonly DynamoDBDocumentClient[], answers: StubAnswers): string[] {
  const answered: string[] = [];
  const encoded = new WeakMap<object, Uint8Array>();
  const encode = (answer: object) => {
    let body = encoded.get(answer);
    if (!body) encoded.set(answer, (body = new TextEncoder().encode(JSON.stringify(answer))));
    return body;
  };
  const decoder = new TextDecoder();
  const handler = {
    handle: async (request: WireRequest) => {
      const operation = request.headers['x-amz-target']?.split('.')[1] ?? '';
      const text = request.body instanceof Uint8Array ? decoder.decode(request.body) : String(request.body);
      const input = JSON.parse(text) as { TableName?: string; TransactItems?: Record<string, { TableName: string }>[] };
      // A transaction is answered by the table of its first action.
      const tableName = input.TableName ?? Object.values(input.TransactItems?.[0] ?? {})[0]?.TableName ?? '';
      const answer = answers[operation]?.[tableName];
      if (!answer) throw new Error(`The stub has no answer for ${operation} on ${tableName}.`);
      answered.push(`${operation} ${tableName}`);
      const body = encode(typeof answer === 'function' ? answer(input) : answer);
      return { response: { statusCode: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body } };
    },
  };
  for (const client of clients) client.config.requestHandler = handler;
  return answered;
}

/** A Query answer per shard, each shard's pets in petId order on one page: what the stub gives for the inventory's Queries. */
export function shardPages(pets: readonly InventoryCount[]): (request: Record<string, unknown>) => object {
  const pages = new Map<number, object>();
  for (const shard of INVENTORY_SHARDS) {
    const held = pets.filter((pet) => inventoryKey(pet.petId).shard === shard).sort((a, b) => (a.petId < b.petId ? -1 : 1));
    pages.set(shard, { Items: held.map(wireInventoryItem), Count: held.length, ScannedCount: held.length });
  }
  return (request) => pages.get(Number((request.ExpressionAttributeValues as Record<string, { N: string }>)[':shard']!.N))!;
}

/** An entry as the table holds it, every field under its own name (bigints and numbers as N). */
export function wireInventoryItem(item: InventoryCount) {
  return marshall(item);
}

export function wireKeyRecord(record: ApiKeyRecord) {
  const text = Object.fromEntries(
    Object.entries(record)
      .filter(([, value]) => typeof value === 'string')
      .map(([name, value]) => [name, { S: value as string }]),
  );
  if (!record.customLimits) return text;
  return {
    ...text,
    customLimits: { M: { perMinute: { N: String(record.customLimits.perMinute) }, perDay: { N: String(record.customLimits.perDay) } } },
  };
}
