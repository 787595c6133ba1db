import { ERROR_MESSAGES, errorBody, ErrorCode, InternalError, PayloadTooLargeError, ServiceUnavailableError, UnsupportedMediaTypeError } from '../domain/errors.ts';
import type { ErrorBody, InventoryItem, InventoryUpdate, Pet } from '../domain/schemas.ts';
import { gatewayResponses } from '../http/gateway-responses.ts';
import { MAX_BODY_BYTES } from '../http/json-body.ts';
import { toJson } from '../http/json.ts';
import { DEMO_INVENTORY } from '../local/seed.ts';
import { apiRoutes } from '../routes.ts';

/**
 * The worked examples of the published contract: one call per operation, the curl line that
 * makes it and the answer it prints. They are calls on the demo inventory `npm start` seeds,
 * so what the reference shows is what a developer sees locally, and test/contract/examples.test.ts
 * runs every curl line against the local server and compares the answers it prints.
 */

/** The shell variable the curl lines read the key from. */
export const API_KEY_VARIABLE = 'API_KEY';

export interface OperationExample {
  /** The request path after the server URL, parameters filled in. */
  path: string;
  body?: InventoryUpdate;
  answer: { status: number; body: InventoryItem[] | InventoryItem | Pet };
}

const bigPet = DEMO_INVENTORY.find((item) => item.petId > BigInt(Number.MAX_SAFE_INTEGER))!;

export const OPERATION_EXAMPLES = {
  listInventory: { path: '/inventory', answer: { status: 200, body: [...DEMO_INVENTORY] } },
  // Sets the stock it already has, so running the example leaves the demo inventory as it was.
  updateInventory: {
    path: `/inventory/${bigPet.petId}`,
    body: { quantity: bigPet.quantity },
    answer: { status: 200, body: bigPet },
  },
  getPetById: { path: `/pets/${bigPet.petId}`, answer: { status: 200, body: { id: bigPet.petId, status: bigPet.status } } },
} as const satisfies Record<(typeof apiRoutes)[number]['operationId'], OperationExample>;

export type OperationId = keyof typeof OPERATION_EXAMPLES;

/** The curl line of an operation's example, against the given server (its base URL, ending in /v1). */
export function curlCommand(serverUrl: string, operationId: OperationId): string {
  const route = apiRoutes.find((candidate) => candidate.operationId === operationId)!;
  const example: OperationExample = OPERATION_EXAMPLES[operationId];
  const lines = [`curl -i${route.method === 'GET' ? '' : ` -X ${route.method}`} -H "Authorization: Bearer $${API_KEY_VARIABLE}"`];
  if (example.body) lines.push(`-H 'Content-Type: application/json' -d '${toJson(example.body)}'`);
  lines.push(`${serverUrl}${example.path}`);
  return lines.join(' \\\n  ');
}

/** What each error code means, in the words the reference and the responses' examples use. */
export const ERROR_CODE_MEANINGS: Readonly<Record<ErrorCode, string>> = {
  [ErrorCode.invalidBody]: 'The body is missing, empty, not an object, lacks `quantity`, or holds an invalid value or an unknown field.',
  [ErrorCode.malformedJson]: 'The body is not valid JSON.',
  [ErrorCode.invalidPetId]: 'The petId in the path is not an integer from 1 to 9223372036854775807 in canonical form.',
  [ErrorCode.invalidQuery]: 'API Gateway refused the request parameters before the service saw them.',
  [ErrorCode.badRequest]: 'API Gateway refused the request before the service saw it.',
  [ErrorCode.unauthorized]: 'The `Authorization: Bearer` key is missing, malformed, unknown or revoked.',
  [ErrorCode.petNotFound]: 'No inventory entry exists for the petId.',
  [ErrorCode.routeNotFound]: 'No operation exists at this path and method.',
  [ErrorCode.payloadTooLarge]: `The body is larger than ${MAX_BODY_BYTES} bytes.`,
  [ErrorCode.inventoryTooLarge]: 'The inventory no longer fits one response; it is refused rather than truncated.',
  [ErrorCode.unsupportedMediaType]: 'The body is not sent as `Content-Type: application/json`.',
  [ErrorCode.rateLimited]: "The key's per-minute limit is used up.",
  [ErrorCode.quotaExceeded]: "The key's daily quota is used up.",
  [ErrorCode.keyBanned]: 'The key kept sending after 429 answers and is banned for a while.',
  [ErrorCode.serviceUnavailable]: 'The data store or the authorizer stayed unavailable after bounded retries.',
  [ErrorCode.internal]: 'An unexpected failure; the detail is only in the service logs.',
};

/** A message an answer with this code carries; taken from the code that sends it wherever that code names it once. */
const SAMPLE_MESSAGES: Readonly<Record<ErrorCode, string>> = {
  [ErrorCode.invalidBody]: 'quantity: Too small: expected number to be >=0',
  [ErrorCode.malformedJson]: 'Request body is not valid JSON: Unexpected end of JSON input.',
  [ErrorCode.invalidPetId]: 'petId must be an integer from 1 to 9223372036854775807, written without sign, leading zeros or exponent.',
  [ErrorCode.invalidQuery]: gatewayResponses.BAD_REQUEST_PARAMETERS.message,
  [ErrorCode.badRequest]: gatewayResponses.DEFAULT_4XX.message,
  [ErrorCode.unauthorized]: ERROR_MESSAGES.unauthorized,
  [ErrorCode.petNotFound]: 'No inventory entry exists for pet 123456.',
  [ErrorCode.routeNotFound]: gatewayResponses.RESOURCE_NOT_FOUND.message,
  [ErrorCode.payloadTooLarge]: new PayloadTooLargeError(MAX_BODY_BYTES).message,
  [ErrorCode.inventoryTooLarge]: "The inventory has 120000 entries, more than one response can carry (Lambda's 6 MiB limit); it is not truncated. Contact the API team.",
  [ErrorCode.unsupportedMediaType]: new UnsupportedMediaTypeError().message,
  [ErrorCode.rateLimited]: 'The per-minute request limit of this API key (60) is used up; retry after the time in Retry-After, with exponential backoff.',
  [ErrorCode.quotaExceeded]: 'The daily request quota of this API key (1000) is used up; retry after the time in Retry-After, with exponential backoff.',
  [ErrorCode.keyBanned]: 'This API key is temporarily banned for continuing to send requests after 429 responses; retry after the time in Retry-After.',
  [ErrorCode.serviceUnavailable]: new ServiceUnavailableError(1).message,
  [ErrorCode.internal]: new InternalError().message,
};

/** The Error body of an answer with this status and code, as the reference shows it. */
export function errorExample(status: number, code: ErrorCode): ErrorBody {
  return errorBody(status, code, SAMPLE_MESSAGES[code]);
}
