import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { StoreUnavailableError } from '../../domain/errors.ts';

export interface DocumentClientOptions {
  /** Set for the local store (dynalite); unset on Lambda, where the SDK resolves it. */
  endpoint?: string;
  region?: string;
}

/**
 * Three attempts with the SDK's standard backoff, each bounded by connect and request
 * timeouts: the worst case (about 7 s) stays inside the functions' 10 s timeout, so a
 * throttled or unreachable table ends in a 503, never in a Lambda timeout.
 */
export const STORE_RETRY = { maxAttempts: 3, connectionTimeoutMs: 1_000, requestTimeoutMs: 1_500 } as const;

export function createDocumentClient(options: DocumentClientOptions = {}): DynamoDBDocumentClient {
  const config: DynamoDBClientConfig = {
    maxAttempts: STORE_RETRY.maxAttempts,
    retryMode: 'standard',
    requestHandler: {
      connectionTimeout: STORE_RETRY.connectionTimeoutMs,
      requestTimeout: STORE_RETRY.requestTimeoutMs,
    },
  };
  if (options.region) config.region = options.region;
  if (options.endpoint) {
    config.endpoint = options.endpoint;
    config.region ??= 'local';
    // The local store accepts any credentials; fixed ones keep the developer's AWS profile out of it.
    config.credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  }
  return DynamoDBDocumentClient.from(new DynamoDBClient(config), {
    marshallOptions: { removeUndefinedValues: true },
    // Numbers come back as exact decimal text: petId is int64 and must not pass through a double.
    unmarshallOptions: { wrapNumbers: true },
  });
}

const TRANSIENT_ERROR_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);
const TRANSIENT_NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/** True for failures a caller should retry later: throttling, timeouts, an unreachable store. */
export function isTransientStoreError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return TRANSIENT_ERROR_NAMES.has(error.name) || (typeof code === 'string' && TRANSIENT_NETWORK_CODES.has(code));
}

/** Runs a store call, turning transient AWS failures (after the SDK's retries) into the domain's error. */
export async function callStore<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (isTransientStoreError(error)) throw new StoreUnavailableError({ cause: error });
    throw error;
  }
}
