import {
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createIdempotentWriteRepository } from '../../../functions/adapters/dynamodb/idempotent-write-repository.ts';
import { createDocumentClient, unmarshallOptions } from '../../../functions/adapters/dynamodb/document-client.ts';
import { createInventoryRepository } from '../../../functions/adapters/dynamodb/inventory-repository.ts';
import { inventoryKey } from '../../../functions/adapters/dynamodb/stored-inventory-item.ts';
import { INVENTORY_ITEM_FIELD_KINDS, INVENTORY_ITEM_FIELDS } from '../../../functions/domain/inventory-item-fields.ts';
import { InventoryCount, type InventoryItem } from '../../../functions/domain/schemas.ts';
import { unheld } from '../../../functions/domain/stock-writes.ts';
import { formatInventoryFile, InventoryFileError, parseInventoryFile, sameEntry } from '../../../local/inventory-file.ts';
import { testAttribution } from '../../support/inventory.ts';

/**
 * Every place that handles an InventoryItem field by field must carry each field of the schema:
 * a field added to the schema and missed by one of them fails here, by name. The fields are read
 * from the schema itself, not from the list the code derives from it.
 */
const FIELDS = Object.keys(InventoryCount.shape) as (keyof InventoryCount)[];

/** Two entries that differ in every field, so each field's value is told apart from the other's. */
const ENTRY: InventoryItem = unheld({ petId: 9_007_199_254_740_993n, quantity: 7, status: 'pending' });
const OTHER: InventoryItem = unheld({ petId: 2n, quantity: 0, status: 'sold' });

const TABLES = { inventoryTable: 'Inventory', idempotencyRecordsTable: 'IdempotencyRecords' };
const dynamo = mockClient(DynamoDBDocumentClient);
const client = () => createDocumentClient({ region: 'eu-west-1' });

/** A value as the store gives it back: marshalled, then read as the document client reads it (numbers as exact text). */
const asStored = (value: Record<string, unknown>) => unmarshall(marshall(value), unmarshallOptions());

/** What DynamoDB returns of a stored entry for a read's ProjectionExpression and its placeholders: the whole item without one. */
function projected(
  stored: Record<string, unknown>,
  input: { ProjectionExpression?: string; ExpressionAttributeNames?: Record<string, string> },
) {
  if (input.ProjectionExpression === undefined) return stored;
  const names = (input.ProjectionExpression ?? '').split(',').map((path) => {
    const name = path.trim();
    return input.ExpressionAttributeNames?.[name] ?? name;
  });
  return Object.fromEntries(names.filter((name) => name in stored).map((name) => [name, stored[name]]));
}

/** The entry as the table holds it: every field under its own name, beside the key's shard and the version. */
const storedEntry = () => asStored({ ...ENTRY, ...inventoryKey(ENTRY.petId), version: 3, lastChange: { kind: 'set' } });

/** The attributes an UpdateItem's SET assigns from plain values (`name = :value` or `#name = :value`), by attribute name. */
function assigned(input: {
  UpdateExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}) {
  const clauses = [...(input.UpdateExpression ?? '').matchAll(/(#?\w+) = (:\w+)(?=,|$| ADD)/g)];
  return Object.fromEntries(
    clauses.map(([, name, value]) => [input.ExpressionAttributeNames?.[name!] ?? name, input.ExpressionAttributeValues![value!]]),
  );
}

beforeEach(() => dynamo.reset());

it("the code's field list is the schema's, in its order, each stored as its type says", () => {
  const kindOf = { bigint: 'int64', number: 'number', enum: 'string', string: 'string' } as Record<string, string>;

  expect(INVENTORY_ITEM_FIELDS).toEqual(FIELDS);
  expect(INVENTORY_ITEM_FIELD_KINDS).toEqual(
    Object.fromEntries(FIELDS.map((field) => [field, kindOf[InventoryCount.shape[field].def.type]])),
  );
});

it('the fixtures differ in every field of the schema', () => {
  expect(FIELDS.filter((field) => ENTRY[field] === OTHER[field])).toEqual([]);
});

describe.each(FIELDS)('InventoryItem field %s', (field) => {
  it('is read by the listing: its Query reads it and the entry maps it', async () => {
    dynamo.on(QueryCommand).callsFake((input: Record<string, unknown>) => {
      const shard = (input.ExpressionAttributeValues as Record<string, unknown>)[':shard'];
      return { Items: shard === inventoryKey(ENTRY.petId).shard ? [projected(storedEntry(), input)] : [] };
    });
    const listed: InventoryItem[] = [];
    for await (const page of createInventoryRepository(client(), TABLES.inventoryTable).listAll()) listed.push(...page);

    expect(listed.map((item) => item[field])).toEqual([ENTRY[field]]);
  });

  it("is read by one entry's GetItem: it reads it and the entry maps it", async () => {
    dynamo.on(GetCommand).callsFake((input: Record<string, unknown>) => ({ Item: projected(storedEntry(), input) }));

    const read = await createInventoryRepository(client(), TABLES.inventoryTable).get(ENTRY.petId);

    expect(read?.item[field]).toEqual(ENTRY[field]);
  });

  it('is written by an import or a seed, and compared by its condition', async () => {
    dynamo.on(TransactWriteCommand).resolves({});

    await createInventoryRepository(client(), TABLES.inventoryTable).putMany([ENTRY], testAttribution('import'));

    const update = (dynamo.commandCalls(TransactWriteCommand)[0]!.args[0].input as TransactWriteCommandInput).TransactItems![0]!.Update!;
    // The key holds petId; the update's SET writes the other fields.
    const written = asStored({ ...update.Key, ...assigned(update) });
    expect(String(written[field])).toBe(String(ENTRY[field]));
    const names = [
      field,
      ...Object.keys(update.ExpressionAttributeNames ?? {}).filter((name) => update.ExpressionAttributeNames![name] === field),
    ];
    if (!(field in update.Key!)) expect(names.some((name) => update.ConditionExpression!.includes(`${name} <> :`))).toBe(true);
  });

  it('is kept by the idempotency record and replayed from it', async () => {
    dynamo.on(UpdateCommand).callsFake((input: Record<string, unknown>) => ({
      Attributes: asStored({ recordId: 'key#1', requestHash: 'hash', expiresAt: 1, ...assigned(input) }),
    }));

    const replayed = await createIdempotentWriteRepository(client(), TABLES).recordAnswer('key#1', { item: ENTRY, version: 4 });

    expect('item' in replayed && replayed.item[field]).toEqual(ENTRY[field]);
  });

  it("is kept in a batch's answer in the idempotency record", async () => {
    dynamo.on(UpdateCommand).callsFake((input: Record<string, unknown>) => ({
      Attributes: asStored({ recordId: 'key#1', requestHash: 'hash', expiresAt: 1, ...assigned(input) }),
    }));

    const replayed = await createIdempotentWriteRepository(client(), TABLES).recordAnswer('key#1', { items: [ENTRY, OTHER] });

    expect('items' in replayed && replayed.items.map((item) => item[field])).toEqual([ENTRY[field], OTHER[field]]);
  });

  it('is exported to the inventory file and imported from it', () => {
    const text = formatInventoryFile([ENTRY]);

    expect(text).toContain(`"${field}":`);
    expect(parseInventoryFile('items.json', text)[0]![field]).toEqual(ENTRY[field]);
  });

  it("is named by the file's messages when an entry lacks it", () => {
    const { [field]: _missing, ...rest } = ENTRY;
    const text = formatInventoryFile([rest as InventoryItem]);

    expect(() => parseInventoryFile('items.json', text)).toThrow(InventoryFileError);
    expect(() => parseInventoryFile('items.json', text)).toThrow(new RegExp(`^entry 1.*: .*\\b${field}\\b.*\\(missing\\)`));
    expect(() => parseInventoryFile('items.json', '{}')).toThrow(`"${field}"`);
    expect(() => parseInventoryFile('items.json', '[1]')).toThrow(`"${field}"`);
  });

  it("makes an import's entry a change when it differs", () => {
    expect(sameEntry(ENTRY, { ...ENTRY })).toBe(true);
    expect(sameEntry(ENTRY, { ...ENTRY, [field]: OTHER[field] })).toBe(false);
  });
});
