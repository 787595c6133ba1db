import { ConditionalCheckFailedException, DynamoDBClient, ListTablesCommand, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { isServerError, isThrottlingError, isTransientError } from '@smithy/service-error-classification';
import { StoreUnavailableError } from '../../domain/errors.ts';

export interface DocumentClientOptions {
  /** Set for the local store (DynamoDB Local); unset on Lambda, where the SDK resolves it. */
  endpoint?: string;
  region?: string;
  /** How calls are bounded: 'lambda' (the default without an endpoint) or 'local-store'. */
  profile?: 'lambda' | 'local-store';
  /** On Lambda: the attempts and timeouts of each call (default CALL_BOUNDS.data). */
  bounds?: CallBounds;
}

export interface CallBounds {
  maxAttempts: number;
  connectionTimeoutMs: number;
  requestTimeoutMs: number;
}

/**
 * Attempts with the SDK's standard backoff, each bounded by connect and request timeouts:
 * counting gives up within about 2 s (then it fails open), a data call within about 7.5 s. A
 * request making several calls could still add up past the functions' 10 s timeout, so the
 * handler also has one deadline (http-handler.ts): either way a throttled or unreachable
 * table ends in a 503, never in a Lambda timeout. A Lambda instance serves one request at a
 * time; the listing has one Query per shard in flight, the other requests at most two calls.
 */
export const CALL_BOUNDS = {
  data: { maxAttempts: 3, connectionTimeoutMs: 1_000, requestTimeoutMs: 1_500 },
  // Counting fails open, so waiting long for it would only delay the answer.
  counting: { maxAttempts: 2, connectionTimeoutMs: 500, requestTimeoutMs: 500 },
} as const satisfies Record<string, CallBounds>;

/**
 * The local store is DynamoDB Local on this machine, sharing its two cores with the server and
 * the tests: under a burst, calls queue for the CPU rather than a network, so they get many
 * sockets and patience instead.
 */
const LOCAL_HTTP = { maxSockets: 1_024, timeoutMs: 15_000 } as const;

/**
 * Numbers come back as exact decimal text: petId is int64 and must not pass through a double.
 * A function, not a shared object: the document client writes its own flags into the options it is given.
 */
export const unmarshallOptions = () => ({ wrapNumbers: true });

export function createDocumentClient(options: DocumentClientOptions = {}): DynamoDBDocumentClient {
  const local = (options.profile ?? (options.endpoint === undefined ? 'lambda' : 'local-store')) === 'local-store';
  const bounds = options.bounds ?? CALL_BOUNDS.data;
  const config: DynamoDBClientConfig = {
    maxAttempts: bounds.maxAttempts,
    retryMode: 'standard',
    requestHandler: {
      connectionTimeout: local ? LOCAL_HTTP.timeoutMs : bounds.connectionTimeoutMs,
      requestTimeout: local ? LOCAL_HTTP.timeoutMs : bounds.requestTimeoutMs,
      // Without this the SDK only logs a breached request timeout and keeps waiting.
      throwOnRequestTimeout: true,
      ...(local ? { httpAgent: { keepAlive: true, maxSockets: LOCAL_HTTP.maxSockets } } : {}),
    },
  };
  if (options.region) config.region = options.region;
  if (options.endpoint) {
    config.endpoint = options.endpoint;
    config.region ??= 'local';
    // The local store accepts any credentials; fixed ones keep the developer's AWS profile out of it.
    config.credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  }
  const base = new DynamoDBClient(config);
  if (local) awaitLocalCommits(base);
  const document = DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true },
    unmarshallOptions: unmarshallOptions(),
  });
  // The document client's own destroy() does nothing; this one owns its base client, so it releases its sockets.
  document.destroy = () => base.destroy();
  return document;
}

/**
 * DynamoDB Local answers a TransactWriteItems before its commit is on disk: it queues the SQLite
 * COMMIT on the one thread that runs every statement and answers without waiting for it
 * (`commitTransaction` is the only statement of its SQLite access that does not wait; every read
 * and single-item write waits its turn on that thread). A JVM killed in between loses a write the
 * caller was told had happened (seen in two rounds of three with 12 transactions in flight). So
 * under npm start every transaction answered is followed by one call that waits its turn behind
 * the commit, ListTables, before the caller hears of it. AWS's DynamoDB answers a transaction
 * once it is durable: the Lambda profile adds nothing. docs/developing.md, "The store's process".
 */
function awaitLocalCommits(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const output = await next(args);
      if (context.commandName === 'TransactWriteItemsCommand') await client.send(new ListTablesCommand({ Limit: 1 }));
      return output;
    },
    { step: 'initialize', name: 'awaitLocalCommits' },
  );
}

/**
 * True for failures a caller should retry later: throttling, timeouts, an unreachable store, a
 * 5xx from DynamoDB. The SDK's own classifier decides, the same one its retry strategy uses, so
 * the list of error names and network codes follows the SDK instead of being kept by hand.
 */
export function isTransientStoreError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // The classifier reads an SDK error's fields ($metadata, $retryable, code) where they exist.
  const sdkError = error as Parameters<typeof isTransientError>[0];
  return isThrottlingError(sdkError) || isTransientError(sdkError) || isServerError(sdkError);
}

/** A transient AWS failure (after the SDK's retries) as the domain's error; any other failure as it is. */
export function inDomainTerms(error: unknown): unknown {
  return isTransientStoreError(error) ? new StoreUnavailableError({ cause: error }) : error;
}

/** Runs a store call, turning transient AWS failures (after the SDK's retries) into the domain's error. */
export async function callStore<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw inDomainTerms(error);
  }
}

export type ConditionalWrite =
  | { held: true; attributes: Record<string, unknown> }
  /** `current` is the item as the failed condition saw it, when the input asked for it with ReturnValuesOnConditionCheckFailure. */
  | { held: false; current: Record<string, unknown> | undefined };

/** Whether a conditional write's condition held: its failing is an answer, any other error is not. */
export const conditionHeld = (write: Promise<unknown>): Promise<boolean> =>
  write.then(
    () => true,
    (error: unknown) => {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    },
  );

/** Sends a conditional UpdateItem and says whether its condition held, without treating a failed condition as an error. */
export async function updateIfConditionHolds(client: DynamoDBDocumentClient, input: UpdateCommandInput): Promise<ConditionalWrite> {
  try {
    const { Attributes } = await client.send(new UpdateCommand(input));
    return { held: true, attributes: Attributes ?? {} };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    // The document client unmarshalls answers but not the item a failed condition carries.
    return { held: false, current: error.Item ? unmarshall(error.Item, unmarshallOptions()) : undefined };
  }
}
