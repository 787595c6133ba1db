import { readConfig } from './config.ts';
import { createDependencies } from './dependencies.ts';
import { createListInventoryHandler } from './handlers/inventory-handlers.ts';

export const handler = createListInventoryHandler(createDependencies(readConfig()));
