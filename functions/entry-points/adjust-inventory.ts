import { readConfig } from '../config.ts';
import { createDependencies } from '../dependencies.ts';
import { createAdjustInventoryHandler } from '../handlers/adjust-inventory-handler.ts';

export const handler = createAdjustInventoryHandler(createDependencies(readConfig()));
