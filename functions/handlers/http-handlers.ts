import { readPetsSunset } from '../config.ts';
import type { ServiceDependencies } from '../dependencies.ts';
import type { HttpHandler, StreamedHttpHandler } from '../http/http-handler.ts';
import type { OperationId } from '../routes.ts';
import { createAdjustInventoryHandler } from './adjust-inventory-handler.ts';
import { createGetInventoryItemHandler } from './get-inventory-item-handler.ts';
import { createListInventoryHandler } from './list-inventory-handler.ts';
import { createListInventoryChangesHandler } from './list-inventory-changes-handler.ts';
import { createUpdateInventoryHandler } from './update-inventory-handler.ts';
import { createGetPetByIdHandler } from './get-pet-by-id-handler.ts';

/**
 * Every HTTP operation's handler by operationId (see routes.ts), for hosts that run them all in
 * one process. Such a host provides Lambda's streaming runtime first (provideLambdaStreaming).
 * Keyed by OperationId, so a route without a handler here does not compile.
 */
export function createHttpHandlers(dependencies: ServiceDependencies): Record<OperationId, HttpHandler | StreamedHttpHandler> {
  return {
    listInventory: createListInventoryHandler(dependencies),
    getInventoryItem: createGetInventoryItemHandler(dependencies),
    updateInventory: createUpdateInventoryHandler(dependencies),
    adjustInventory: createAdjustInventoryHandler(dependencies),
    listInventoryChanges: createListInventoryChangesHandler(dependencies),
    getPetById: createGetPetByIdHandler({ ...dependencies, petsSunsetAt: readPetsSunset() }),
  };
}
