import { inventoryKey } from '../../../functions/adapters/dynamodb/stored-inventory-item.ts';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ROUNDS_RESERVE_MS } from '../../../functions/http/http-handler.ts';
import { linesWrittenBy } from '../../support/log-lines.ts';
import { lambdaContext, patchEvent, proxyEvent } from '../../support/events.ts';
import { canceled, versionedChangeOf } from '../../support/inventory.ts';
import { COUNTERS_TABLE, IDEMPOTENCY_TABLE, INVENTORY_TABLE, inventoryHandlers } from '../../support/mocked-handlers.ts';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 30);
const NOW_SECONDS = NOW / 1000;
const dynamo = mockClient(DynamoDBDocumentClient);
const handlers = () => inventoryHandlers(NOW);

beforeEach(() => {
  dynamo.reset();
  dynamo.on(UpdateCommand, { TableName: COUNTERS_TABLE }).resolves({ Attributes: { requests: 1, minuteRequests: 1 } });
  dynamo.on(GetCommand, { TableName: COUNTERS_TABLE }).resolves({});
});

const body = (text: string) => JSON.parse(text) as Record<string, unknown>;

function adjustEvent(delta: number, idempotencyKey = 'key-1') {
  return proxyEvent({
    resource: '/inventory/{petId}/adjustments',
    path: '/inventory/7/adjustments',
    httpMethod: 'POST',
    pathParameters: { petId: '7' },
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
    body: JSON.stringify({ delta, reason: 'arrival' }),
  });
}

describe('getInventoryItem', () => {
  it('reads the entry strongly consistent', async () => {
    dynamo.on(GetCommand, { TableName: INVENTORY_TABLE }).resolves({ Item: { petId: 7n, quantity: 3, status: 'sold' } });

    const response = await handlers().getItem(proxyEvent({ pathParameters: { petId: '7' } }), lambdaContext);

    expect([response.statusCode, response.body]).toEqual([200, '{"petId":7,"quantity":3,"status":"sold","reserved":0,"available":3}']);
    expect(dynamo).toHaveReceivedCommandWith(GetCommand, { TableName: INVENTORY_TABLE, Key: inventoryKey(7n), ConsistentRead: true });
  });
});

describe('updateInventory with changeFromQuantity', () => {
  it('sends one conditional write that holds for the expected or the requested quantity, and no read', async () => {
    dynamo.on(UpdateCommand, { TableName: INVENTORY_TABLE }).resolves({ Attributes: { petId: 7n, quantity: 5, status: 'available' } });

    const response = await handlers().update(patchEvent('7', '{"quantity":5,"changeFromQuantity":4}'), lambdaContext);

    const change = versionedChangeOf({ kind: 'compareAndSet', requestId: 'request-1', keyId: 'key_test' });
    expect(response.statusCode).toBe(200);
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      TableName: INVENTORY_TABLE,
      Key: inventoryKey(7n),
      UpdateExpression: `SET quantity = :quantity, available = :quantity - if_not_exists(reserved, :zero), ${change.set}`,
      ConditionExpression: 'attribute_exists(petId) AND quantity = :changeFrom AND quantity <> :quantity',
      ExpressionAttributeNames: change.names,
      ExpressionAttributeValues: { ':quantity': 5, ':zero': 0, ':changeFrom': 4, ...change.values },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    expect(dynamo.commandCalls(GetCommand, { TableName: INVENTORY_TABLE })).toHaveLength(0);
  });

  it('answers 409 QUANTITY_CHANGED with the stored quantity the refusal carried', async () => {
    dynamo.on(UpdateCommand, { TableName: INVENTORY_TABLE }).rejects(
      new ConditionalCheckFailedException({
        message: 'failed',
        $metadata: {},
        Item: marshall({ petId: 7, quantity: 9, status: 'available' }),
      }),
    );

    const response = await handlers().update(patchEvent('7', '{"quantity":5,"changeFromQuantity":4}'), lambdaContext);

    expect(response.statusCode).toBe(409);
    expect(body(response.body)).toEqual({
      code: 'QUANTITY_CHANGED',
      message: 'The stored quantity of pet 7 is 9, not changeFromQuantity 4; nothing was written. Read it again and retry.',
      status: 409,
    });
  });

  it('answers 404 when the refusal carried no entry', async () => {
    dynamo
      .on(UpdateCommand, { TableName: INVENTORY_TABLE })
      .rejects(new ConditionalCheckFailedException({ message: 'failed', $metadata: {} }));

    const response = await handlers().update(patchEvent('7', '{"quantity":5,"changeFromQuantity":4}'), lambdaContext);

    expect([response.statusCode, body(response.body).code]).toEqual([404, 'PET_NOT_FOUND']);
  });
});

describe('adjustInventory', () => {
  const recordId = 'key_test#key-1';

  it('adds the delta and records the key in one transaction, then records the answer it gives', async () => {
    dynamo.on(GetCommand, { TableName: IDEMPOTENCY_TABLE }).resolves({});
    dynamo.on(TransactWriteCommand).resolves({});
    dynamo.on(GetCommand, { TableName: INVENTORY_TABLE }).resolves({ Item: { petId: 7n, quantity: 12, status: 'available' } });
    dynamo
      .on(UpdateCommand, { TableName: IDEMPOTENCY_TABLE })
      .resolves({ Attributes: { recordId, petId: 7n, answer: 'applied', quantity: 12, petStatus: 'available' } });

    const response = await handlers().adjust(adjustEvent(2), lambdaContext);

    expect([response.statusCode, response.body, response.headers?.['Idempotent-Replayed']]).toEqual([
      200,
      '{"petId":7,"quantity":12,"status":"available","reserved":0,"available":12}',
      undefined,
    ]);
    expect(dynamo).toHaveReceivedCommandWith(GetCommand, { TableName: IDEMPOTENCY_TABLE, Key: { recordId }, ConsistentRead: true });
    const [transaction] = dynamo.commandCalls(TransactWriteCommand);
    const change = versionedChangeOf({
      kind: 'adjustment',
      requestId: 'request-1',
      keyId: 'key_test',
      reason: 'arrival',
      idempotencyKey: 'key-1',
    });
    expect(transaction!.args[0].input.TransactItems).toEqual([
      {
        Update: {
          TableName: INVENTORY_TABLE,
          Key: inventoryKey(7n),
          UpdateExpression: `SET ${change.set}, available = if_not_exists(available, quantity) + :delta ADD quantity :delta`,
          ConditionExpression: 'attribute_exists(petId) AND quantity <= :limit',
          ExpressionAttributeNames: change.names,
          ExpressionAttributeValues: { ':delta': 2, ':limit': 2_147_483_645, ...change.values },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      {
        Put: {
          TableName: IDEMPOTENCY_TABLE,
          Item: { recordId, requestHash: expect.any(String), expiresAt: NOW_SECONDS + 86_400 },
          ConditionExpression: 'attribute_not_exists(recordId) OR expiresAt <= :now',
          ExpressionAttributeValues: { ':now': NOW_SECONDS },
        },
      },
    ]);
    expect(transaction!.args[0].input.ClientRequestToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      TableName: IDEMPOTENCY_TABLE,
      Key: { recordId },
      ConditionExpression: 'attribute_exists(recordId) AND attribute_not_exists(#answer) AND attribute_not_exists(#status)',
      ExpressionAttributeValues: {
        ':answer': 'applied',
        ':petId': 7n,
        ':quantity': 12,
        ':petStatus': 'available',
        ':reserved': 0,
        ':version': 0,
      },
    });
  });

  it('bounds a removal at 0 and answers 409 INSUFFICIENT_STOCK from the entry the refusal carried, recording it', async () => {
    dynamo.on(GetCommand, { TableName: IDEMPOTENCY_TABLE }).resolves({});
    dynamo
      .on(TransactWriteCommand)
      .rejects(canceled({ Code: 'ConditionalCheckFailed', Item: { petId: 7, quantity: 2, status: 'available' } }, { Code: 'None' }));
    dynamo.on(PutCommand, { TableName: IDEMPOTENCY_TABLE }).resolves({});

    const response = await handlers().adjust(adjustEvent(-3), lambdaContext);

    expect([response.statusCode, body(response.body).code]).toEqual([409, 'INSUFFICIENT_STOCK']);
    expect(body(response.body).message).toBe('Pet 7 has 2 in stock; a delta of -3 would take it below 0. Nothing was written.');
    const [transaction] = dynamo.commandCalls(TransactWriteCommand);
    expect(transaction!.args[0].input.TransactItems?.[0]?.Update).toMatchObject({
      // Only stock no reservation holds: an entry written before reservations has no `available`, and its quantity stands for it.
      ConditionExpression: 'attribute_exists(petId) AND (available >= :held OR (attribute_not_exists(available) AND quantity >= :held))',
      ExpressionAttributeValues: { ':delta': -3, ':held': 3 },
    });
    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      TableName: IDEMPOTENCY_TABLE,
      Item: {
        recordId,
        requestHash: expect.any(String),
        expiresAt: NOW_SECONDS + 86_400,
        answer: 'refused',
        code: 'INSUFFICIENT_STOCK',
        message: body(response.body).message,
      },
      ConditionExpression: 'attribute_not_exists(recordId) OR expiresAt <= :now',
    });
  });

  it('answers 404 when the refusal carried no entry', async () => {
    dynamo.on(GetCommand, { TableName: IDEMPOTENCY_TABLE }).resolves({});
    dynamo.on(TransactWriteCommand).rejects(canceled({ Code: 'ConditionalCheckFailed' }, { Code: 'None' }));
    dynamo.on(PutCommand, { TableName: IDEMPOTENCY_TABLE }).resolves({});

    const response = await handlers().adjust(adjustEvent(1), lambdaContext);

    expect([response.statusCode, body(response.body).code]).toEqual([404, 'PET_NOT_FOUND']);
  });

  it("replays what a duplicate recorded first, when its record beat this request's transaction", async () => {
    const stored: Record<string, unknown> = {
      recordId,
      petId: 7n,
      answer: 'applied',
      quantity: 4,
      petStatus: 'pending',
      expiresAt: NOW_SECONDS + 10,
    };
    dynamo.on(GetCommand, { TableName: IDEMPOTENCY_TABLE }).resolvesOnce({}).resolves({ Item: stored });
    // The duplicate was this same request: its record holds the hash this request's transaction tried to put.
    dynamo.on(TransactWriteCommand).callsFake((input: { TransactItems: Array<{ Put?: { Item: { requestHash: string } } }> }) => {
      stored.requestHash = input.TransactItems[1]?.Put?.Item.requestHash;
      throw canceled({ Code: 'None' }, { Code: 'ConditionalCheckFailed' });
    });

    const response = await handlers().adjust(adjustEvent(2), lambdaContext);

    expect([response.statusCode, response.body, response.headers?.['Idempotent-Replayed']]).toEqual([
      200,
      '{"petId":7,"quantity":4,"status":"pending","reserved":0,"available":4}',
      'true',
    ]);
    expect(dynamo).toHaveReceivedCommandTimes(TransactWriteCommand, 1);
  });

  it.each([
    [
      'an applied change',
      { status: 200, quantity: 4, petStatus: 'pending', version: 3 },
      [200, '{"petId":7,"quantity":4,"status":"pending","reserved":0,"available":4}'],
    ],
    [
      'a refusal',
      {
        status: 409,
        code: 'INSUFFICIENT_STOCK',
        message: 'Pet 7 has 2 in stock; a delta of -3 would take it below 0. Nothing was written.',
      },
      [
        409,
        '{"code":"INSUFFICIENT_STOCK","message":"Pet 7 has 2 in stock; a delta of -3 would take it below 0. Nothing was written.","status":409}',
      ],
    ],
  ])('replays %s that a record of the previous release holds as the HTTP status it was answered with', async (_kind, answer, expected) => {
    const stored: Record<string, unknown> = { recordId, petId: 7n, expiresAt: NOW_SECONDS + 10, ...answer };
    dynamo.on(GetCommand, { TableName: IDEMPOTENCY_TABLE }).resolvesOnce({}).resolves({ Item: stored });
    dynamo.on(TransactWriteCommand).callsFake((input: { TransactItems: Array<{ Put?: { Item: { requestHash: string } } }> }) => {
      stored.requestHash = input.TransactItems[1]?.Put?.Item.requestHash;
      throw canceled({ Code: 'None' }, { Code: 'ConditionalCheckFailed' });
    });

    const response = await handlers().adjust(adjustEvent(2), lambdaContext);

    expect([response.statusCode, response.body, response.headers?.['Idempotent-Replayed']]).toEqual([...expected, 'true']);
  });

  it('answers 503 when the transaction keeps meeting other transactions, saying nothing was written, and counts it', async () => {
    dynamo.on(GetCommand, { TableName: IDEMPOTENCY_TABLE }).resolves({});
    dynamo.on(TransactWriteCommand).rejects(canceled({ Code: 'TransactionConflict' }, { Code: 'None' }));
    vi.stubEnv('METRICS_DISABLED', 'false');

    let response: Awaited<ReturnType<ReturnType<typeof handlers>['adjust']>> | undefined;
    const lines = await linesWrittenBy(async () => {
      response = await handlers().adjust(adjustEvent(1), lambdaContext);
    });
    vi.unstubAllEnvs();

    expect([response!.statusCode, response!.headers?.['Retry-After'], body(response!.body)]).toEqual([
      503,
      '1',
      {
        code: 'SERVICE_UNAVAILABLE',
        message:
          "The change sent with Idempotency-Key key-1 met other writes of the same stock until the request's time ran out. Nothing was written: send it again after the time in Retry-After.",
        status: 503,
      },
    ]);
    expect(dynamo).toHaveReceivedCommandTimes(TransactWriteCommand, 20);
    expect(dynamo).toHaveReceivedCommandTimes(PutCommand, 0);
    expect(lines.filter((line) => 'WriteContended' in line).map((line) => line.WriteContended)).toEqual([1]);
  });

  it("starts no further round once the function time left is the rounds' reserve", async () => {
    dynamo.on(GetCommand, { TableName: IDEMPOTENCY_TABLE }).resolves({});
    dynamo.on(TransactWriteCommand).rejects(canceled({ Code: 'TransactionConflict' }, { Code: 'None' }));
    const nearTheEnd = { ...lambdaContext, getRemainingTimeInMillis: () => ROUNDS_RESERVE_MS };

    const response = await handlers().adjust(adjustEvent(1), nearTheEnd);

    expect(response.statusCode).toBe(503);
    expect(dynamo).toHaveReceivedCommandTimes(TransactWriteCommand, 1);
  });

  it('answers 503 when the transaction is throttled', async () => {
    dynamo.on(GetCommand, { TableName: IDEMPOTENCY_TABLE }).resolves({});
    dynamo.on(TransactWriteCommand).rejects(canceled({ Code: 'ThrottlingError' }, { Code: 'None' }));

    const response = await handlers().adjust(adjustEvent(1), lambdaContext);

    expect([response.statusCode, body(response.body).code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
  });
});
