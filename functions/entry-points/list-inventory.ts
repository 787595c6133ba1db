import { readConfig } from '../config.ts';
import { createDependencies } from '../dependencies.ts';
import { createListInventoryHandler } from '../handlers/list-inventory-handler.ts';

export const handler = createListInventoryHandler(createDependencies(readConfig()));
