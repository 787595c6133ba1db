import { createDocumentClient } from '../adapters/dynamodb/document-client.ts';
import { createHistoryRepository } from '../adapters/dynamodb/history-repository.ts';
import { ENV, readHistoryRetentionDays } from '../config.ts';
import { createRecordInventoryChangesHandler } from '../handlers/record-inventory-changes-handler.ts';

// Only the history table: the consumer wires nothing else, so its bundle and its role hold nothing else.
const historyTableName = process.env[ENV.historyTable];
if (!historyTableName) throw new Error(`Environment variable ${ENV.historyTable} must be set.`);

export const handler = createRecordInventoryChangesHandler({
  history: createHistoryRepository(createDocumentClient(), historyTableName, readHistoryRetentionDays()),
});
