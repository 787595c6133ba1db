import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord } from '../functions/domain/api-keys.ts';
import type { InventoryItem } from '../functions/domain/schemas.ts';

/** A DynamoDB operation's name as the wire protocol carries it in X-Amz-Target (GetItem, UpdateItem, Scan, …). */
export type Operation = string;

/** What the stub answers, by operation and table: DynamoDB's JSON response, in wire format. */
export type StubAnswers = Record<Operation, Record<string, unknown>>;

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
  const encoded = new Map<string, Uint8Array>();
  for (const [operation, byTable] of Object.entries(answers)) {
    for (const [tableName, answer] of Object.entries(byTable)) encoded.set(`${operation} ${tableName}`, new TextEncoder().encode(JSON.stringify(answer)));
  }
  const decoder = new TextDecoder();
  const handler = {
    handle: async (request: WireRequest) => {
      const operation = request.headers['x-amz-target']?.split('.')[1];
      const text = request.body instanceof Uint8Array ? decoder.decode(request.body) : String(request.body);
      const input = JSON.parse(text) as { TableName?: string; TransactItems?: Record<string, { TableName: string }>[] };
      // A transaction is answered by the table of its first action.
      const TableName = input.TableName ?? Object.values(input.TransactItems?.[0] ?? {})[0]?.TableName;
      const body = encoded.get(`${operation} ${TableName}`);
      if (!body) throw new Error(`The stub has no answer for ${operation} on ${TableName}.`);
      answered.push(`${operation} ${TableName}`);
      return { response: { statusCode: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body } };
    },
  };
  for (const client of clients) client.config.requestHandler = handler;
  return answered;
}

export function wireInventoryItem(item: InventoryItem) {
  return { petId: { N: String(item.petId) }, quantity: { N: String(item.quantity) }, status: { S: item.status } };
}

export function wireKeyRecord(record: ApiKeyRecord) {
  const text = Object.fromEntries(Object.entries(record).filter(([, value]) => typeof value === 'string').map(([name, value]) => [name, { S: value as string }]));
  if (!record.customLimits) return text;
  return { ...text, customLimits: { M: { perMinute: { N: String(record.customLimits.perMinute) }, perDay: { N: String(record.customLimits.perDay) } } } };
}
