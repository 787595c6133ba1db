import { readConfig } from '../config.ts';
import { createDependencies } from '../dependencies.ts';
import { createListInventoryChangeFeedHandler } from '../handlers/list-inventory-change-feed-handler.ts';

export const handler = createListInventoryChangeFeedHandler(createDependencies(readConfig()));
