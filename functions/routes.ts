/**
 * The API's operations, once: the CDK stack makes a method and a function of each, the
 * local server routes to the same handlers. `entry` names the function's entry point, whose file
 * is entryPointFile(entry).
 */
/** The API Gateway stage, and the version segment of every path: the contract's base address ends in it. */
export const API_STAGE_NAME = 'v1';

export interface ApiRoute {
  operationId: string;
  method: 'GET' | 'PATCH' | 'POST' | 'PUT' | 'DELETE';
  /** API Gateway resource path, relative to the stage (`/v1`). */
  resource: string;
  entry: string;
  /**
   * What the function may do to the inventory table, and to the idempotency records or the
   * history with it (least privilege by construction).
   */
  inventoryAccess: 'list' | 'read' | 'update' | 'adjust' | 'adjustBatch' | 'history' | 'feed' | 'thresholdRead' | 'thresholdWrite';
  /**
   * The function streams its answer (Lambda response streaming, API Gateway transfer mode
   * STREAM; its handler is a streamedHttpHandler) and gets the longer timeout.
   */
  streamed: boolean;
}

/**
 * How long a function may run. A buffered answer: the DynamoDB client gives up after about 7 s
 * (3 attempts, 1 s connect and 1.5 s request timeouts) and answers 503; 10 s leaves room for
 * that answer, far below API Gateway's 29 s. A streamed listing: the largest answer Lambda
 * streams (200 MB) takes 95 s to pass API Gateway's 2 MB/s after its first 10 MB, plus the
 * reads; 3 minutes leave room for a slow client and a compressed listing's CPU.
 */
export const FUNCTION_TIMEOUT_SECONDS = { buffered: 10, streamed: 180 } as const;

export function functionTimeoutSeconds(route: Pick<ApiRoute, 'streamed'>): number {
  return route.streamed ? FUNCTION_TIMEOUT_SECONDS.streamed : FUNCTION_TIMEOUT_SECONDS.buffered;
}

export const apiRoutes = [
  { operationId: 'listInventory', method: 'GET', resource: '/inventory', entry: 'list-inventory', inventoryAccess: 'list', streamed: true },
  {
    operationId: 'getInventoryItem',
    method: 'GET',
    resource: '/inventory/{petId}',
    entry: 'get-inventory-item',
    inventoryAccess: 'read',
    streamed: false,
  },
  {
    operationId: 'updateInventory',
    method: 'PATCH',
    resource: '/inventory/{petId}',
    entry: 'update-inventory',
    inventoryAccess: 'update',
    streamed: false,
  },
  {
    operationId: 'adjustInventory',
    method: 'POST',
    resource: '/inventory/{petId}/adjustments',
    entry: 'adjust-inventory',
    inventoryAccess: 'adjust',
    streamed: false,
  },
  {
    operationId: 'adjustInventoryBatch',
    method: 'POST',
    resource: '/inventory/adjustments',
    entry: 'adjust-inventory-batch',
    inventoryAccess: 'adjustBatch',
    streamed: false,
  },
  {
    operationId: 'listInventoryChanges',
    method: 'GET',
    resource: '/inventory/{petId}/changes',
    entry: 'list-inventory-changes',
    inventoryAccess: 'history',
    streamed: false,
  },
  {
    operationId: 'listInventoryChangeFeed',
    method: 'GET',
    resource: '/inventory/changes',
    entry: 'list-inventory-change-feed',
    inventoryAccess: 'feed',
    streamed: false,
  },
  {
    operationId: 'putLowStockThreshold',
    method: 'PUT',
    resource: '/inventory/{petId}/low-stock-threshold',
    entry: 'put-low-stock-threshold',
    inventoryAccess: 'thresholdWrite',
    streamed: false,
  },
  {
    operationId: 'getLowStockThreshold',
    method: 'GET',
    resource: '/inventory/{petId}/low-stock-threshold',
    entry: 'get-low-stock-threshold',
    inventoryAccess: 'thresholdRead',
    streamed: false,
  },
  {
    operationId: 'deleteLowStockThreshold',
    method: 'DELETE',
    resource: '/inventory/{petId}/low-stock-threshold',
    entry: 'delete-low-stock-threshold',
    inventoryAccess: 'thresholdWrite',
    streamed: false,
  },
  { operationId: 'getPetById', method: 'GET', resource: '/pets/{petId}', entry: 'get-pet-by-id', inventoryAccess: 'read', streamed: false },
] as const satisfies readonly ApiRoute[];

/** The operations by name: a table keyed by it (the handlers, the alarms) must name every one. */
export type OperationId = (typeof apiRoutes)[number]['operationId'];

export const authorizerEntry = 'authorizer';

/** The inventory stream's consumer, which records each pet's history; no route calls it. */
export const historyConsumerEntry = 'record-inventory-changes';

/** Where an entry point's file is, relative to the project: the one file a Lambda bundle starts from. */
export function entryPointFile(entry: string): string {
  return `functions/entry-points/${entry}.ts`;
}

/**
 * GET /v1/health, for load balancers, uptime probes and the deploy smoke test. Outside the
 * contract's operations: no key, not counted against any plan, no write; one read of the
 * inventory table tells whether the store answers.
 */
export const healthRoute = {
  operationId: 'getHealth',
  method: 'GET',
  resource: '/health',
  entry: 'health',
  streamed: false,
} as const satisfies Omit<ApiRoute, 'inventoryAccess'>;

/** The webhooks' delivery from their queue on AWS; no route calls it. */
export const webhookDeliveryEntry = 'deliver-webhooks';

/** The functions no route serves. */
export const backgroundEntries = [historyConsumerEntry, webhookDeliveryEntry] as const;
