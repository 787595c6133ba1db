import { readConfig } from '../config.ts';
import { createDependencies } from '../dependencies.ts';
import { createListInventoryChangesHandler } from '../handlers/list-inventory-changes-handler.ts';

export const handler = createListInventoryChangesHandler(createDependencies(readConfig()));
