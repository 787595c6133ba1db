import { readConfig } from '../config.ts';
import { createDependencies } from '../dependencies.ts';
import { createGetInventoryItemHandler } from '../handlers/get-inventory-item-handler.ts';

export const handler = createGetInventoryItemHandler(createDependencies(readConfig()));
