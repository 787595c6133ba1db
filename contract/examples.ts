import { ERROR_MESSAGES, ErrorCode } from '../functions/domain/errors.ts';
import type {
  ErrorBody,
  InventoryAdjustment,
  InventoryAdjustmentBatch,
  InventoryItem,
  InventoryLowStockEvent,
  InventoryUpdate,
  LowStockThreshold,
  LowStockThresholdUpdate,
  Pet,
  Reservation,
  ReservationRequest,
  CommittedReservation,
} from '../functions/domain/schemas.ts';
import { reservationNotFound } from '../functions/domain/reservation-ids.ts';
import { unheld } from '../functions/domain/stock-writes.ts';
import { INVENTORY_LOW_STOCK, MAX_HOLDS_PER_PET } from '../functions/domain/vocabulary.ts';
import { DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE } from '../functions/domain/failed-authentications.ts';
import type { ChangesPage } from '../functions/domain/inventory-history.ts';
import type { ChangeFeedPage } from '../functions/domain/change-feed.ts';
import { alertEvent, eventIdOf, inventoryChangedEvent, type ChangeEventData } from '../functions/domain/inventory-events.ts';
import { webhookHeaders } from '../functions/domain/webhooks.ts';
import { gatewayResponses } from '../functions/http/gateway-responses.ts';
import { IDEMPOTENCY_KEY_REQUIRED_MESSAGE } from '../functions/http/idempotency-key.ts';
import { ERROR_STATUSES, errorBody } from '../functions/http/error-statuses.ts';
import { PayloadTooLargeError } from '../functions/http/json-body.ts';
import { toJson } from '../functions/int64-json.ts';
import { DEMO_INVENTORY } from './demo-inventory.ts';
import { BODY_CAPS, type ApiRoute } from '../functions/routes.ts';

/**
 * What the published contract's examples share. Each operation's worked example (one call, the
 * curl line that makes it and the answer it prints) is its document's, in operation-documents.ts;
 * here are what more than one example reads: the curl line an example makes, the demo pets and the
 * reservation they name, the webhooks' examples, and each error code's meaning and example
 * message. The examples are calls on the demo inventory `npm start` seeds, so what the reference
 * shows is what a developer sees locally, and test/process/contract/examples.test.ts runs every
 * curl line against the local server and compares the answers it prints.
 */

/** The shell variable the curl lines read the key from. */
export const API_KEY_VARIABLE = 'API_KEY';

/** An operation's worked example: the call its curl line makes, and the answer that call prints. */
export interface OperationExample {
  /** The request path after the server URL, parameters filled in. */
  path: string;
  body?: InventoryUpdate | InventoryAdjustment | InventoryAdjustmentBatch | LowStockThresholdUpdate | ReservationRequest;
  /** Request headers beyond the key and the content type. */
  headers?: Readonly<Record<string, string>>;
  /** The answer: its body, none for a 204. */
  answer:
    | {
        status: number;
        body:
          | InventoryItem[]
          | InventoryItem
          | { items: InventoryItem[] }
          | Pet
          | ChangesPage
          | ChangeFeedPage
          | LowStockThreshold
          | Reservation
          | CommittedReservation
          | ErrorBody;
      }
    | { status: 204 };
}

/** The demo pet whose id a double cannot hold: most examples and the webhooks name it, so the reference shows such an id digit for digit. */
export const bigPet = unheld(DEMO_INVENTORY.find((item) => item.petId > BigInt(Number.MAX_SAFE_INTEGER))!);
export const firstPet = DEMO_INVENTORY[0]!;

/** A demo pet's entry after an adjustment of its stock by delta. */
export function adjustedEntry(petId: bigint, delta: number): InventoryItem {
  const pet = DEMO_INVENTORY.find((item) => item.petId === petId)!;
  return unheld({ ...pet, quantity: pet.quantity + delta });
}

/** The reservation id the examples show: in the reservation example's answer (whose id is the call's own), and as the stale id the others name. */
export const EXAMPLE_RESERVATION_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/**
 * The webhook the reference shows: the big pet's adjustment at a till, as npm start and the
 * delivery function send it (the body, the event id derived from the change, the headers as signed).
 */
const tillSale: ChangeEventData = {
  petId: bigPet.petId,
  version: 2,
  occurredAt: '2026-11-24T07:12:03.456Z',
  kind: 'adjustment',
  quantityBefore: bigPet.quantity,
  quantityAfter: bigPet.quantity - 1,
  delta: -1,
  status: bigPet.status,
  reason: 'adjustment',
  reservedBefore: 0,
  reservedAfter: 0,
  reservationId: null,
  reference: null,
  idempotencyKey: 'till-7-receipt-1042',
  requestId: '5e2c1f7a-3b9d-4c1e-8f6a-2d7b9e0c4a11',
  keyId: 'key_3f9a2c7b1e5d',
};
/** A secret in WEBHOOK_SECRET's form, for the example's signature only. */
const EXAMPLE_SECRET = Buffer.from('an example secret of 32 bytes!!!');
const tillSaleMessage = { id: eventIdOf(tillSale), body: toJson(inventoryChangedEvent(tillSale)) };
export const WEBHOOK_EXAMPLE = {
  body: inventoryChangedEvent(tillSale),
  headers: webhookHeaders(EXAMPLE_SECRET, tillSaleMessage, new Date('2026-11-24T07:12:03.912Z')),
} as const;

/** The alert the reference shows: the till sale above took the big pet below a threshold of 5 (an example's figures). */
const lowStockAlert = alertEvent({
  type: INVENTORY_LOW_STOCK,
  occurredAt: tillSale.occurredAt,
  data: { petId: bigPet.petId, threshold: 5, available: 4, quantity: 4, reserved: 0, version: tillSale.version },
});
export const LOW_STOCK_WEBHOOK_EXAMPLE = {
  body: lowStockAlert.body as InventoryLowStockEvent,
  headers: webhookHeaders(EXAMPLE_SECRET, { id: lowStockAlert.id, body: toJson(lowStockAlert.body) }, new Date('2026-11-24T07:12:03.950Z')),
} as const;

/** The curl line of an operation's example, against the given server (its base URL, ending in /v1). */
export function curlCommand(serverUrl: string, method: ApiRoute['method'], example: OperationExample): string {
  const lines = [`curl -i${method === 'GET' ? '' : ` -X ${method}`} -H "Authorization: Bearer $${API_KEY_VARIABLE}"`];
  for (const [name, value] of Object.entries(example.headers ?? {})) lines.push(`-H '${name}: ${value}'`);
  if (example.body) lines.push(`-H 'Content-Type: application/json' -d '${toJson(example.body)}'`);
  lines.push(`${serverUrl}${example.path}`);
  return lines.join(' \\\n  ');
}

/**
 * Each error code: what it means, in the words the reference uses, and a message an answer with
 * it carries (taken from the code that sends it wherever that code names it once).
 */
export const ERROR_CODES: Readonly<Record<ErrorCode, { meaning: string; message: string }>> = {
  [ErrorCode.invalidBody]: {
    meaning: 'The body is missing, empty, not an object, lacks `quantity`, or holds an invalid value or an unknown field.',
    message: 'quantity: Too small: expected number to be >=0',
  },
  [ErrorCode.malformedJson]: {
    meaning: 'The body is not valid JSON.',
    message: 'Request body is not valid JSON: Unexpected end of JSON input.',
  },
  [ErrorCode.invalidPetId]: {
    meaning: 'The petId in the path is not an integer from 1 to 9223372036854775807 in canonical form.',
    message: 'petId must be an integer from 1 to 9223372036854775807, written without sign, leading zeros or exponent.',
  },
  [ErrorCode.invalidQuery]: {
    meaning:
      'A query parameter is invalid (`limit` or `cursor` of `listInventoryChanges` or `listInventoryChangeFeed`), or API Gateway refused the request parameters.',
    message: gatewayResponses.BAD_REQUEST_PARAMETERS.message,
  },
  [ErrorCode.badRequest]: {
    meaning: 'API Gateway refused the request before the service saw it.',
    message: gatewayResponses.DEFAULT_4XX.message,
  },
  [ErrorCode.unauthorized]: {
    meaning: `The \`Authorization: Bearer\` key is missing, malformed, unknown or revoked; or the source address sent more than ${DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE} requests without a valid key within the minute, and is refused before any key lookup until the minute ends (X-RateLimit-Remaining 0; a key that authenticated from the address today is still served).`,
    message: ERROR_MESSAGES.unauthorized,
  },
  [ErrorCode.petNotFound]: {
    meaning: 'No inventory entry exists for the petId.',
    message: 'No inventory entry exists for pet 123456.',
  },
  [ErrorCode.lowStockThresholdNotFound]: {
    meaning: 'The pet has an inventory entry but no low-stock threshold is set for it.',
    message: 'Pet 123456 has no low-stock threshold.',
  },
  [ErrorCode.routeNotFound]: {
    meaning: 'No operation exists at this path and method.',
    message: gatewayResponses.RESOURCE_NOT_FOUND.message,
  },
  [ErrorCode.payloadTooLarge]: {
    meaning: `The body is larger than the operation takes: ${BODY_CAPS.oneEntry} bytes for one entry's change, ${BODY_CAPS.manyEntries} for a batch or a cart.`,
    message: new PayloadTooLargeError(BODY_CAPS.oneEntry).message,
  },
  [ErrorCode.quantityChanged]: {
    meaning: 'A compare-and-set whose `changeFromQuantity` is no longer the stored quantity; nothing was written.',
    message: 'The stored quantity of pet 2 is 13, not changeFromQuantity 3; nothing was written. Read it again and retry.',
  },
  [ErrorCode.preconditionFailed]: {
    meaning: 'An `If-Match` that names a version (ETag) the entry no longer has; nothing was written.',
    message: 'The entry of pet 2 is at version 7 (ETag "7"), not the one If-Match names; nothing was written. Read it again and retry.',
  },
  [ErrorCode.insufficientStock]: {
    meaning:
      'An adjustment that would take more than is available (stock no reservation holds), a reservation of more than a pet has available (the message names each such pet), or a commit of stock a count has since set below what it holds; nothing was written.',
    message: 'Pet 2 has 3 in stock; a delta of -5 would take it below 0. Nothing was written.',
  },
  [ErrorCode.tooManyHolds]: {
    meaning: `A reservation of a pet that ${MAX_HOLDS_PER_PET} active reservations hold already; nothing was written.`,
    message: `Pet 2 is held by ${MAX_HOLDS_PER_PET} active reservations, the most one pet carries; commit or release some first. Nothing was written.`,
  },
  [ErrorCode.reservationNotFound]: {
    meaning: 'No reservation exists with this id.',
    message: reservationNotFound(EXAMPLE_RESERVATION_ID).message,
  },
  [ErrorCode.reservationExpired]: {
    meaning: 'A commit of a reservation past its expiresAt: it holds nothing any more; nothing was written.',
    message: `Reservation ${EXAMPLE_RESERVATION_ID} expired at 2026-11-24T07:27:03.456Z: it holds nothing any more; reserve again. Nothing was written.`,
  },
  [ErrorCode.reservationReleased]: {
    meaning: 'A commit of a reservation that was released; nothing was written.',
    message: `Reservation ${EXAMPLE_RESERVATION_ID} was released: it holds nothing any more; reserve again. Nothing was written.`,
  },
  [ErrorCode.reservationCommitted]: {
    meaning: 'A release of a reservation that was committed: its stock is sold; nothing was written.',
    message: `Reservation ${EXAMPLE_RESERVATION_ID} was committed: its stock is sold. Nothing was written.`,
  },
  [ErrorCode.quantityOutOfRange]: {
    meaning: 'An adjustment that would take the stock above 2147483647; nothing was written.',
    message: 'Pet 2 has 3 in stock; a delta of 2147483647 would take it above 2147483647. Nothing was written.',
  },
  [ErrorCode.idempotencyKeyRequired]: {
    meaning: 'An adjustment without an `Idempotency-Key` header of 1 to 255 visible ASCII characters, bare or quoted.',
    message: IDEMPOTENCY_KEY_REQUIRED_MESSAGE,
  },
  [ErrorCode.idempotencyKeyReused]: {
    meaning: 'The `Idempotency-Key` was used within 24 hours for another adjustment (another pet, delta or reason); nothing was written.',
    message:
      'Idempotency-Key 5b0f3b1e-4a8c-4c1f-9f6e-2d7a1c9e8b40 was already used for a different request (another pet, delta or reason) within 24 hours; use a new key for a new adjustment.',
  },
  [ErrorCode.unsupportedMediaType]: {
    meaning: 'The body is not sent as `Content-Type: application/json`.',
    message: ERROR_MESSAGES.unsupportedMediaType,
  },
  [ErrorCode.rateLimited]: {
    meaning: "The key's per-minute limit is used up.",
    message: 'The per-minute request limit of this API key (60) is used up; retry after the time in Retry-After, with exponential backoff.',
  },
  [ErrorCode.quotaExceeded]: {
    meaning: "The key's daily quota is used up.",
    message: 'The daily request quota of this API key (1000) is used up; retry after the time in Retry-After, with exponential backoff.',
  },
  [ErrorCode.keyBanned]: {
    meaning: 'The key kept sending after 429 answers and is banned for a while.',
    message: 'This API key is temporarily banned for continuing to send requests after 429 responses; retry after the time in Retry-After.',
  },
  [ErrorCode.serviceUnavailable]: {
    meaning: 'The data store or the authorizer stayed unavailable after bounded retries.',
    message: ERROR_MESSAGES.serviceUnavailable,
  },
  [ErrorCode.internal]: {
    meaning: 'An unexpected failure; the detail is only in the service logs.',
    message: ERROR_MESSAGES.internal,
  },
};

/** The Error body of an answer with this code, as the reference shows it. */
export function errorExample(code: ErrorCode): ErrorBody {
  return errorBody(ERROR_STATUSES[code], code, ERROR_CODES[code].message);
}

/** The examples of reading, committing and releasing name a reservation no server has: their answer is the 404 a stale id meets. */
export const UNKNOWN_RESERVATION_ANSWER: OperationExample['answer'] = {
  status: 404,
  body: errorExample(ErrorCode.reservationNotFound),
};
