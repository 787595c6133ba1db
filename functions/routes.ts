/**
 * The API's operations, once: the CDK stack makes a method and a function of each, the
 * local server routes to the same handlers. `entry` is the function's file in functions/.
 */
export interface ApiRoute {
  operationId: string;
  method: 'GET' | 'PATCH' | 'POST';
  /** API Gateway resource path, relative to the stage (`/v1`). */
  resource: string;
  entry: string;
  /** What the function may do to the inventory table, and to the idempotency records with it (least privilege by construction). */
  inventoryAccess: 'read' | 'update' | 'adjust';
}

export const apiRoutes = [
  { operationId: 'listInventory', method: 'GET', resource: '/inventory', entry: 'list-inventory', inventoryAccess: 'read' },
  { operationId: 'getInventoryItem', method: 'GET', resource: '/inventory/{petId}', entry: 'get-inventory-item', inventoryAccess: 'read' },
  { operationId: 'updateInventory', method: 'PATCH', resource: '/inventory/{petId}', entry: 'update-inventory', inventoryAccess: 'update' },
  { operationId: 'adjustInventory', method: 'POST', resource: '/inventory/{petId}/adjustments', entry: 'adjust-inventory', inventoryAccess: 'adjust' },
  { operationId: 'getPetById', method: 'GET', resource: '/pets/{petId}', entry: 'get-pet-by-id', inventoryAccess: 'read' },
] as const satisfies readonly ApiRoute[];

/** The operations by name: a table keyed by it (the handlers, the alarms) must name every one. */
export type OperationId = (typeof apiRoutes)[number]['operationId'];

export const authorizerEntry = 'authorizer';
