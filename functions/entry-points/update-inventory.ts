import { readConfig } from '../config.ts';
import { createDependencies } from '../dependencies.ts';
import { createUpdateInventoryHandler } from '../handlers/update-inventory-handler.ts';

export const handler = createUpdateInventoryHandler(createDependencies(readConfig()));
