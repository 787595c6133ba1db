import { readConfig } from '../config.ts';
import { createDependencies } from '../dependencies.ts';
import { createAdjustInventoryBatchHandler } from '../handlers/adjust-inventory-batch-handler.ts';

export const handler = createAdjustInventoryBatchHandler(createDependencies(readConfig()));
