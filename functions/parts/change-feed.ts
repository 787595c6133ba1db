import { createChangeFeedRepository } from '../adapters/dynamodb/change-feed-repository.ts';
import type { ChangeFeedRepository } from '../domain/change-feed.ts';
import { DEFAULT_HISTORY_RETENTION_DAYS } from '../domain/vocabulary.ts';
import type { Part } from './part.ts';

/** Every pet's changes in one order, kept as long as the history. */
export const changeFeedPart: Part<ChangeFeedRepository> = ({ stores, config }) =>
  createChangeFeedRepository(stores.client, config.changeFeedTable, config.historyRetentionDays ?? DEFAULT_HISTORY_RETENTION_DAYS);
