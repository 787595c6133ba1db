import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../functions/adapters/dynamodb/document-client.ts';
import { adminClient, isAlive, startLocalStore } from '../../../local/local-store.ts';
import { temporaryDirectory } from '../../support/temporary-directories.ts';

/**
 * The document client as npm start builds it, over DynamoDB Local on a data directory: every
 * TransactWriteItems it answers is on disk when the caller hears of it, so a SIGKILL of the JVM
 * right after the answers loses none. DynamoDB Local itself answers a transaction before its
 * commit runs (document-client.ts, awaitLocalCommits): without the client's wait, 7 of 10 such
 * rounds lost a transaction here, one CPU-bound process beside the engine.
 */

const TABLE = 'petstore-commits';
const ROUNDS = 8;
const TRANSACTIONS_PER_ROUND = 12;

let dataDir: string;
let busy: ChildProcess;

beforeAll(() => {
  dataDir = temporaryDirectory('document-client-commits-');
  // The loss was seen most on a loaded machine: a process that keeps a core busy the whole time.
  busy = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
});

afterAll(() => {
  if (busy.pid !== undefined && isAlive(busy.pid)) process.kill(busy.pid, 'SIGKILL');
});

const itemId = (round: number, index: number) => `round-${round}-${index}`;

describe('transactions the local-store client answered', () => {
  it(
    'survive a SIGKILL of DynamoDB Local right after the answers, round after round',
    async () => {
      const lost: string[] = [];
      for (let round = 0; round <= ROUNDS; round += 1) {
        const store = await startLocalStore({ dataDir });
        const client = createDocumentClient({ endpoint: store.endpoint });
        try {
          if (round === 0) {
            const admin = adminClient(store.endpoint);
            await admin.send(
              new CreateTableCommand({
                TableName: TABLE,
                BillingMode: 'PAY_PER_REQUEST',
                AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
                KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
              }),
            );
            admin.destroy();
          } else {
            for (let index = 0; index < TRANSACTIONS_PER_ROUND; index += 1) {
              const id = itemId(round - 1, index);
              const { Item } = await client.send(new GetCommand({ TableName: TABLE, Key: { id }, ConsistentRead: true }));
              if (!Item) lost.push(id);
            }
          }
          if (round === ROUNDS) break;
          await Promise.all(
            Array.from({ length: TRANSACTIONS_PER_ROUND }, (_, index) =>
              client.send(
                new TransactWriteCommand({
                  TransactItems: [
                    { Put: { TableName: TABLE, Item: { id: itemId(round, index) } } },
                    { Put: { TableName: TABLE, Item: { id: `${itemId(round, index)}-pair` } } },
                  ],
                }),
              ),
            ),
          );
          // Every transaction answered: the engine dies before anything else reaches it.
          process.kill(store.pid, 'SIGKILL');
          while (isAlive(store.pid)) await new Promise((resolve) => setTimeout(resolve, 20));
        } finally {
          client.destroy();
          // Ends the engine's watchdog too (and the engine, in the last round).
          await store.close();
        }
      }
      expect(lost).toEqual([]);
    },
    ROUNDS * 30_000,
  );
});
