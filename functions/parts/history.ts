import { createHistoryRepository } from '../adapters/dynamodb/history-repository.ts';
import type { HistoryRepository } from '../domain/inventory-history.ts';
import { DEFAULT_HISTORY_RETENTION_DAYS } from '../domain/vocabulary.ts';
import type { Part } from './part.ts';

/** Each pet's history, its entries kept the stage's retention. */
export const historyPart: Part<HistoryRepository> = ({ stores, config }) =>
  createHistoryRepository(stores.client, config.historyTable, config.historyRetentionDays ?? DEFAULT_HISTORY_RETENTION_DAYS);
