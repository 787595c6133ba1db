import { readConfig } from './config.ts';
import { createDependencies } from './dependencies.ts';
import { createUpdateInventoryHandler } from './handlers/inventory-handlers.ts';

export const handler = createUpdateInventoryHandler(createDependencies(readConfig()));
