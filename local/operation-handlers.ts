import { readPetsSunset } from '../functions/config.ts';
import type { ServiceDependencies } from './service-dependencies.ts';
import type { HttpHandler, StreamedHttpHandler } from '../functions/http/http-handler.ts';
import type { OperationId } from '../functions/routes.ts';
import { createAdjustInventoryBatchHandler } from '../functions/handlers/adjust-inventory-batch-handler.ts';
import { createAdjustInventoryHandler } from '../functions/handlers/adjust-inventory-handler.ts';
import { createGetInventoryItemHandler } from '../functions/handlers/get-inventory-item-handler.ts';
import { createListInventoryHandler } from '../functions/handlers/list-inventory-handler.ts';
import { createListInventoryChangeFeedHandler } from '../functions/handlers/list-inventory-change-feed-handler.ts';
import { createListInventoryChangesHandler } from '../functions/handlers/list-inventory-changes-handler.ts';
import { createUpdateInventoryHandler } from '../functions/handlers/update-inventory-handler.ts';
import { createGetPetByIdHandler } from '../functions/handlers/get-pet-by-id-handler.ts';
import { createDeleteLowStockThresholdHandler } from '../functions/handlers/delete-low-stock-threshold-handler.ts';
import { createGetLowStockThresholdHandler } from '../functions/handlers/get-low-stock-threshold-handler.ts';
import { createPutLowStockThresholdHandler } from '../functions/handlers/put-low-stock-threshold-handler.ts';
import {
  createCommitReservationHandler,
  createGetReservationHandler,
  createReleaseReservationHandler,
} from '../functions/handlers/reservation-handlers.ts';
import { createReserveInventoryHandler } from '../functions/handlers/reserve-inventory-handler.ts';

/**
 * Every HTTP operation's handler by operationId (see routes.ts), for hosts that run them all in
 * one process. Such a host provides Lambda's streaming runtime first (provideLambdaStreaming).
 * Keyed by OperationId, so a route without a handler here does not compile.
 */
export function createOperationHandlers(dependencies: ServiceDependencies): Record<OperationId, HttpHandler | StreamedHttpHandler> {
  return {
    listInventory: createListInventoryHandler(dependencies),
    getInventoryItem: createGetInventoryItemHandler(dependencies),
    updateInventory: createUpdateInventoryHandler(dependencies),
    adjustInventory: createAdjustInventoryHandler(dependencies),
    adjustInventoryBatch: createAdjustInventoryBatchHandler(dependencies),
    listInventoryChanges: createListInventoryChangesHandler(dependencies),
    listInventoryChangeFeed: createListInventoryChangeFeedHandler(dependencies),
    putLowStockThreshold: createPutLowStockThresholdHandler(dependencies),
    getLowStockThreshold: createGetLowStockThresholdHandler(dependencies),
    deleteLowStockThreshold: createDeleteLowStockThresholdHandler(dependencies),
    reserveInventory: createReserveInventoryHandler(dependencies),
    getReservation: createGetReservationHandler(dependencies),
    commitReservation: createCommitReservationHandler(dependencies),
    releaseReservation: createReleaseReservationHandler(dependencies),
    getPetById: createGetPetByIdHandler({ ...dependencies, petsSunsetAt: readPetsSunset() }),
  };
}
