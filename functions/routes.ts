import { API_DOCUMENTATION_URL, type Deprecation, type OperationStability } from './domain/lifecycle.ts';
import { CHANGES_PAGE_LIMIT } from './domain/vocabulary.ts';
import type * as Schemas from './domain/schemas.ts';

/**
 * The operation registry: each operation of the API described once, as facts every reader can load
 * without its code: its route, query, body and answer schemas (by name), how it is counted,
 * whether it takes an Idempotency-Key, its store access, streaming and lifecycle. What it does is
 * its definition's (functions/operations/<name>.ts, defineOperation in http/operation.ts), which
 * the registry names by convention (operationModuleFile). Every reader derives from the two: the
 * CDK stack makes a method, a function (its module generated: lambdaModuleFile), its IAM grants,
 * alarms and dashboard widgets of each; the local server serves every operation's definition;
 * the Middy stack refuses what an operation does not take and sends its lifecycle headers; the
 * OpenAPI document takes its path, method, parameters, body and answer schemas and lifecycle from
 * here and adds the prose, the answers the registry does not decide and the worked example
 * (contract/operation-documents.ts). Plain data only: every Lambda
 * bundle loads this file, and none may load zod, so schemas are named (their exports in
 * domain/schemas.ts), not imported.
 */
/** The API Gateway stage, and the version segment of every path: the contract's base address ends in it. */
export const API_STAGE_NAME = 'v1';

/** A schema of domain/schemas.ts, by its export's name. */
export type SchemaName = keyof typeof Schemas;

/**
 * A query parameter, as the OpenAPI document states it; the handler reads it from the event and
 * the domain checks it (400 INVALID_QUERY). Always optional: a listing answers without it.
 */
export type QueryParameter =
  | { type: 'integer'; minimum: number; maximum: number; description: string }
  | { type: 'string'; description: string }
  /** One of a schema's values: a z.enum of domain/schemas.ts, by name. */
  | { type: SchemaName; description: string };

export interface ApiRoute {
  operationId: string;
  method: 'GET' | 'PATCH' | 'POST' | 'PUT' | 'DELETE';
  /** API Gateway resource path, relative to the stage (`/v1`). */
  resource: string;
  /**
   * What the function may do to the inventory table, and to the idempotency records or the
   * history with it (least privilege by construction).
   */
  inventoryAccess:
    | 'list'
    | 'read'
    | 'update'
    | 'adjust'
    | 'adjustBatch'
    | 'history'
    | 'feed'
    | 'reserve'
    | 'readReservation'
    | 'commitReservation'
    | 'releaseReservation'
    | 'thresholdRead'
    | 'thresholdWrite';
  /**
   * The function streams its answer (Lambda response streaming, API Gateway transfer mode
   * STREAM; its handler is a streamedHttpHandler) and gets the longer timeout.
   */
  streamed: boolean;
  /**
   * How the request is counted against the caller's plan: `first`, before anything is read or
   * written (a write: nothing may be written for a request the count refuses); `alongside`, with
   * the operation's one read, whose result waits for the count's verdict (a read's counting write
   * and its read go out together: one round trip to the store, not two).
   */
  counting: 'first' | 'alongside';
  /**
   * Whether it takes an Idempotency-Key: `required` (applied once per key; 400 without one) or
   * `optional` (a PATCH: once per key when sent); absent, it reads none.
   */
  idempotencyKey?: 'required' | 'optional';
  /** SPEC 9: an operation not `stable` says so on every answer (X-API-Stability) and in the document (x-experimental). */
  stability: OperationStability;
  /** A deprecated operation's dates (its Sunset per stage: PETS_SUNSET_DATE), sent on every answer (Deprecation, Sunset, Link). */
  deprecation?: Deprecation;
  /** The query parameters it reads; path parameters are the resource's `{name}`s. */
  query?: Readonly<Record<string, QueryParameter>>;
  /** The JSON body it validates: a schema of domain/schemas.ts that contract/request-body-schemas.ts compiles. */
  body?: SchemaName;
  /** The largest body it reads, in bytes (413 PAYLOAD_TOO_LARGE above it): one of BODY_CAPS, for every route with a body. */
  maxBodyBytes?: (typeof BODY_CAPS)[keyof typeof BODY_CAPS];
  /** What a 200 holds: a schema's name, or `Name[]` for a JSON array of it (an operation that answers 204 names what it removes). */
  answer: SchemaName | `${SchemaName}[]`;
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

/**
 * The body caps, stated here once: the 413s, the OpenAPI document and the guides read them. One
 * entry's change is a few bytes, so anything near 4 KiB is not a well-meant request; a batch of
 * the most adjustments (99), or a cart of the most items (98), each with the longest petId, is
 * about 7 KB written compactly and about 11 KB indented, which 16 KiB takes, and little else.
 */
export const BODY_CAPS = { oneEntry: 4_096, manyEntries: 16_384 } as const;

/** A page of changes: how many entries, and where the last page ended. */
const changesPageQuery = (cursorDescription: string) =>
  ({
    limit: {
      type: 'integer',
      minimum: CHANGES_PAGE_LIMIT.min,
      maximum: CHANGES_PAGE_LIMIT.max,
      description: `Entries per page, from ${CHANGES_PAGE_LIMIT.min} to ${CHANGES_PAGE_LIMIT.max}; ${CHANGES_PAGE_LIMIT.default} by default.`,
    },
    cursor: { type: 'string', description: cursorDescription },
  }) as const satisfies Record<string, QueryParameter>;

export const apiRoutes = [
  {
    operationId: 'listInventory',
    method: 'GET',
    resource: '/inventory',
    inventoryAccess: 'list',
    streamed: true,
    counting: 'first',
    stability: 'stable',
    query: {
      lowStock: {
        type: 'string',
        description:
          '`true`: the reorder report, only the pets whose available stock is below their low-stock threshold. `false` or absent: every pet.',
      },
    },
    answer: 'InventoryItem[]',
  },
  {
    operationId: 'getInventoryItem',
    method: 'GET',
    resource: '/inventory/{petId}',
    inventoryAccess: 'read',
    streamed: false,
    counting: 'alongside',
    stability: 'stable',
    answer: 'InventoryItem',
  },
  {
    operationId: 'updateInventory',
    method: 'PATCH',
    resource: '/inventory/{petId}',
    inventoryAccess: 'update',
    streamed: false,
    counting: 'first',
    idempotencyKey: 'optional',
    stability: 'experimental',
    body: 'InventoryUpdate',
    maxBodyBytes: BODY_CAPS.oneEntry,
    answer: 'InventoryItem',
  },
  {
    operationId: 'adjustInventory',
    method: 'POST',
    resource: '/inventory/{petId}/adjustments',
    inventoryAccess: 'adjust',
    streamed: false,
    counting: 'first',
    idempotencyKey: 'required',
    stability: 'experimental',
    body: 'InventoryAdjustment',
    maxBodyBytes: BODY_CAPS.oneEntry,
    answer: 'InventoryItem',
  },
  {
    operationId: 'adjustInventoryBatch',
    method: 'POST',
    resource: '/inventory/adjustments',
    inventoryAccess: 'adjustBatch',
    streamed: false,
    counting: 'first',
    idempotencyKey: 'required',
    stability: 'experimental',
    body: 'InventoryAdjustmentBatch',
    maxBodyBytes: BODY_CAPS.manyEntries,
    answer: 'AdjustedInventoryItems',
  },
  {
    operationId: 'listInventoryChanges',
    method: 'GET',
    resource: '/inventory/{petId}/changes',
    inventoryAccess: 'history',
    streamed: false,
    counting: 'alongside',
    stability: 'experimental',
    query: changesPageQuery("The `nextCursor` of the previous page of this pet's history, as it was returned."),
    answer: 'ChangesPage',
  },
  {
    operationId: 'listInventoryChangeFeed',
    method: 'GET',
    resource: '/inventory/changes',
    inventoryAccess: 'feed',
    streamed: false,
    counting: 'alongside',
    stability: 'experimental',
    query: changesPageQuery('The `nextCursor` of a page, as it was returned; without it, the oldest retained change.'),
    answer: 'ChangeFeedPage',
  },
  {
    operationId: 'putLowStockThreshold',
    method: 'PUT',
    resource: '/inventory/{petId}/low-stock-threshold',
    inventoryAccess: 'thresholdWrite',
    streamed: false,
    counting: 'first',
    stability: 'experimental',
    body: 'LowStockThresholdUpdate',
    maxBodyBytes: BODY_CAPS.oneEntry,
    answer: 'LowStockThreshold',
  },
  {
    operationId: 'getLowStockThreshold',
    method: 'GET',
    resource: '/inventory/{petId}/low-stock-threshold',
    inventoryAccess: 'thresholdRead',
    streamed: false,
    counting: 'alongside',
    stability: 'experimental',
    answer: 'LowStockThreshold',
  },
  {
    operationId: 'deleteLowStockThreshold',
    method: 'DELETE',
    resource: '/inventory/{petId}/low-stock-threshold',
    inventoryAccess: 'thresholdWrite',
    streamed: false,
    counting: 'first',
    stability: 'experimental',
    answer: 'LowStockThreshold',
  },
  {
    operationId: 'getPetById',
    method: 'GET',
    resource: '/pets/{petId}',
    inventoryAccess: 'read',
    streamed: false,
    counting: 'alongside',
    stability: 'stable',
    // Deprecated since version 1.0.0 of the contract (SPEC 9); the sunset is set per stage.
    deprecation: {
      deprecatedAt: new Date('2026-01-01T00:00:00Z'),
      sunsetAt: new Date('2027-07-01T00:00:00Z'),
      documentation: `${API_DOCUMENTATION_URL}/deprecations#get-pet-by-id`,
    },
    answer: 'Pet',
  },
  {
    operationId: 'reserveInventory',
    method: 'POST',
    resource: '/inventory/reservations',
    inventoryAccess: 'reserve',
    streamed: false,
    counting: 'first',
    idempotencyKey: 'required',
    stability: 'experimental',
    body: 'ReservationRequest',
    maxBodyBytes: BODY_CAPS.manyEntries,
    answer: 'Reservation',
  },
  {
    operationId: 'getReservation',
    method: 'GET',
    resource: '/inventory/reservations/{reservationId}',
    inventoryAccess: 'readReservation',
    streamed: false,
    counting: 'alongside',
    stability: 'experimental',
    answer: 'Reservation',
  },
  {
    operationId: 'commitReservation',
    method: 'POST',
    resource: '/inventory/reservations/{reservationId}/commit',
    inventoryAccess: 'commitReservation',
    streamed: false,
    counting: 'first',
    stability: 'experimental',
    answer: 'CommittedReservation',
  },
  {
    operationId: 'releaseReservation',
    method: 'DELETE',
    resource: '/inventory/reservations/{reservationId}',
    inventoryAccess: 'releaseReservation',
    streamed: false,
    counting: 'first',
    stability: 'experimental',
    answer: 'Reservation',
  },
] as const satisfies readonly ApiRoute[];

/** The operations by name: a table keyed by it (the handlers, the examples, the documents) must name every one. */
export type OperationId = (typeof apiRoutes)[number]['operationId'];

/** One operation of the registry, by name. */
export function routeOf<Id extends OperationId>(operationId: Id): Extract<(typeof apiRoutes)[number], { operationId: Id }> {
  return apiRoutes.find((route) => route.operationId === operationId) as Extract<(typeof apiRoutes)[number], { operationId: Id }>;
}

/**
 * The Lambda functions, by name: each has its module, lambdaModuleFile(name), the one file its
 * bundle starts from. An operation's function is named after it (lambdaOf), and its module is
 * generated (npm run lambdas) from the registry and the operation's definition
 * (functions/operations/<name>.ts); the others below are written by hand.
 */
export function lambdaOf(operationId: OperationId): string {
  return operationId.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** Where a Lambda function's module is, relative to the project. */
export function lambdaModuleFile(lambda: string): string {
  return `functions/lambda/${lambda}.ts`;
}

/** Where an operation's definition is, relative to the project: what its function does (http/operation.ts). */
export function operationModuleFile(operationId: OperationId): string {
  return `functions/operations/${lambdaOf(operationId)}.ts`;
}

export const authorizerLambda = 'authorizer';

/** The inventory stream's consumer, which records each pet's history; no route calls it. */
export const historyConsumerLambda = 'record-inventory-changes';

/**
 * GET /v1/health, for load balancers, uptime probes and the deploy smoke test. Outside the
 * contract's operations: no key, not counted against any plan, no write; one read of the
 * inventory table tells whether the store answers.
 */
export const healthRoute = {
  operationId: 'getHealth',
  method: 'GET',
  resource: '/health',
  lambda: 'health',
  streamed: false,
} as const satisfies Pick<ApiRoute, 'operationId' | 'method' | 'resource' | 'streamed'> & { lambda: string };

/** The webhooks' delivery from their queue on AWS; no route calls it. */
export const webhookDeliveryLambda = 'deliver-webhooks';

/** The sweep that records the expiry of reservations past their expiresAt, every minute on AWS; no route calls it. */
export const reservationSweepLambda = 'expire-reservations';

/** The functions no route serves. */
export const backgroundLambdas = [historyConsumerLambda, webhookDeliveryLambda, reservationSweepLambda] as const;

/** Every Lambda function the stack deploys, by name: the operations', then the authorizer, the health check and the background functions. */
export const deployedLambdas: readonly string[] = [
  ...apiRoutes.map((route) => lambdaOf(route.operationId)),
  authorizerLambda,
  healthRoute.lambda,
  ...backgroundLambdas,
];
