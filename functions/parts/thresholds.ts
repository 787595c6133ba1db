import { createLowStockThresholdRepository } from '../adapters/dynamodb/low-stock-threshold-repository.ts';
import type { LowStockThresholdRepository } from '../domain/low-stock.ts';
import type { Part } from './part.ts';

/** The pets' low-stock thresholds, on their entries. */
export const thresholdsPart: Part<LowStockThresholdRepository> = ({ stores, config }) =>
  createLowStockThresholdRepository(stores.client, config.inventoryTable);
