import createClient from 'openapi-fetch';
import { parseList } from 'structured-headers';
import type { ApiErrorCode } from './api-error-codes.ts';
import { parseJsonWithInt64, readJsonArrayWithInt64, stringifyJsonWithInt64 } from './int64-json.ts';
import { defaultSleep, isIdempotent, retryAfterSeconds, retryingFetch, type RetryEvent } from './retry.ts';
import type { components, paths } from './schema.d.ts';

/**
 * A typed client for the Pet Store Inventory API, generated from openapi.json (schema.d.ts)
 * and sending its requests through openapi-fetch. It retries by the contract's rules (see
 * retry.ts) within a deadline, keeps int64 ids exact as bigint on every Node from 20, and
 * resolves every call to `{ data }` or `{ error }`: it never throws for an HTTP, network,
 * timeout or abort failure.
 */

export type InventoryItem = components['schemas']['InventoryItem'];
export type InventoryUpdate = components['schemas']['InventoryUpdate'];
export type InventoryAdjustment = components['schemas']['InventoryAdjustment'];
export type PetAdjustment = components['schemas']['PetAdjustment'];
export type AdjustedInventoryItems = components['schemas']['AdjustedInventoryItems'];
export type Pet = components['schemas']['Pet'];
export type PetId = components['schemas']['PetId'];
export type InventoryChange = components['schemas']['InventoryChange'];
export type ChangesPage = components['schemas']['ChangesPage'];
export type ChangeEventData = components['schemas']['ChangeEventData'];
export type ChangeFeedPage = components['schemas']['ChangeFeedPage'];
export type InventoryChangedEvent = components['schemas']['InventoryChangedEvent'];
export type LowStockThreshold = components['schemas']['LowStockThreshold'];
export type StockAlertData = components['schemas']['StockAlertData'];
export type InventoryLowStockEvent = components['schemas']['InventoryLowStockEvent'];
export type InventoryRestockedEvent = components['schemas']['InventoryRestockedEvent'];
export type ReservationRequest = components['schemas']['ReservationRequest'];
export type Reservation = components['schemas']['Reservation'];
export type CommittedReservation = components['schemas']['CommittedReservation'];
export type { RetryEvent } from './retry.ts';
export type { components, paths } from './schema.d.ts';
export { API_ERROR_CODES, type ApiErrorCode } from './api-error-codes.ts';

/** Failures with no answer of the API behind them, or none in the contract's shape. */
export const CLIENT_ERROR_CODES = ['NETWORK_ERROR', 'TIMEOUT', 'ABORTED', 'UNEXPECTED_RESPONSE', 'INCOMPLETE_RESPONSE'] as const;
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

/** The contract's Error, with `code` one of the API's codes or one of the client's own. */
export interface ErrorBody {
  code: ApiErrorCode | ClientErrorCode;
  message: string;
  /** The HTTP status; 0 when no answer came (NETWORK_ERROR, TIMEOUT, ABORTED). */
  status: number;
}

export interface InventoryClientOptions {
  /** The stage's base address, ending in /v1: https://api.petstore.example/v1. */
  baseUrl: string;
  apiKey: string;
  /** Attempts per call in all, the first included (default 3). */
  maxAttempts?: number;
  /** First backoff ceiling; it doubles per attempt (default 200 ms). */
  baseDelayMs?: number;
  /** Ceiling of any backoff (default 10 s). */
  maxDelayMs?: number;
  /** A 429 asking to wait longer than this (a spent daily quota, a ban) is returned instead of waited out (default 60 s). */
  maxRetryAfterSeconds?: number;
  /** Each call, retries and waits included, ends within this time: TIMEOUT, or the last answer when a wait would pass it (default 30 s). */
  timeoutMs?: number;
  /** Aborts every call of this client (ABORTED). */
  signal?: AbortSignal;
  fetch?: (request: Request) => Promise<Response>;
  /** Injectable for tests and schedulers: how to wait, where jitter comes from, what time it is. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
  onRetry?: (retry: RetryEvent) => void;
}

/** Per call: narrows the client's deadline or adds a signal of its own. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** One page of changes: up to `limit` (1 to 1000, 100 by default) after `cursor` (a `nextCursor` as returned). */
export interface PageOptions extends CallOptions {
  limit?: number;
  cursor?: string;
}

/** What followChangeFeed yields: a page's changes, and the cursor to resume the feed from after them. */
export interface ChangeFeedBatch {
  changes: ChangeEventData[];
  cursor: string;
}

export interface FollowChangeFeedOptions {
  /** Where to start: a `cursor` yielded before (or a page's `nextCursor`); without it, the oldest retained change. */
  cursor?: string;
  /** Changes per request, 1 to 1000 (default 100). */
  limit?: number;
  /**
   * Keep polling: once a page comes back shorter than `limit` the follower has caught up, and asks
   * again after this many milliseconds, for ever or until `signal` aborts. Without it, the iteration
   * ends at the first empty page.
   */
  pollIntervalMs?: number;
  /** Ends the iteration, quietly, at the next request or wait (a request under way is aborted). */
  signal?: AbortSignal;
  /** Deadline of each request, retries included (the client's timeoutMs by default). */
  timeoutMs?: number;
}

/**
 * A page of changes that could not be read, after the client's retries: what the iterators of
 * changes throw. `cursor` is where to resume (the last one reached, undefined for the start).
 */
export class ChangesPageError extends Error {
  override name = 'ChangesPageError';
  constructor(
    readonly result: ApiResult<never> & { error: ErrorBody },
    readonly cursor: string | undefined,
  ) {
    super(
      `${result.error.status} ${result.error.code}: ${result.error.message}${result.requestId ? ` (request ${result.requestId})` : ''}`,
    );
  }

  get error(): ErrorBody {
    return this.result.error;
  }
}

/**
 * One window of the last answer: a key's plan has two (`minute`, `day`), an answer without a
 * valid key reports the source address's (`failed-authentications`).
 */
export interface RateLimitWindow {
  /** The window's name in RateLimit; undefined when it was read from X-RateLimit-*. */
  name: string | undefined;
  remaining: number;
  /** Seconds from the answer until more requests are admitted (`t`); undefined when the answer does not say. */
  resetInSeconds: number | undefined;
  /** Requests the window allows (`q` of RateLimit-Policy); undefined when the answer does not say. */
  limit: number | undefined;
  /** The window's length in seconds (`w` of RateLimit-Policy); undefined when the answer does not say. */
  windowSeconds: number | undefined;
}

/** The rate limits of the last answer (absent on some of API Gateway's own answers). */
export interface RateLimit {
  /** The window closest to exhaustion: from X-RateLimit-*, or where an answer lacks them, from RateLimit and RateLimit-Policy. */
  limit: number;
  remaining: number;
  /** Unix seconds at which that window resets. */
  resetAt: number;
  /**
   * Every window the answer reports, from the structured fields RateLimit and RateLimit-Policy
   * (draft-ietf-httpapi-ratelimit-headers-10); where they are absent or malformed (which the
   * draft says to ignore), the one window of X-RateLimit-*.
   */
  windows: RateLimitWindow[];
}

interface Answer {
  /** The HTTP status of the last answer; 0 when none came. */
  status: number;
  /**
   * The window the answer reports: the key's, or on an answer without a valid key (401, 404) the
   * source address's. Undefined when the answer lacks one of the three headers (some answers of
   * API Gateway's own: see the README's table of answers) and when no answer came.
   */
  rateLimit: RateLimit | undefined;
  /** The id to quote when reporting a call: X-Request-Id (API Gateway's request id, in its access log and every log line of the request); undefined when no answer came. */
  requestId: string | undefined;
  /** From Retry-After, whoever sent it (429 and 503). */
  retryAfterSeconds?: number;
  /** Undefined when no answer came. */
  response: Response | undefined;
}
/** `data` on success, `error` otherwise: the contract's Error body, or the client's own for a failure without one. */
export type ApiResult<T> = Answer & ({ data: T; error?: undefined } | { data?: undefined; error: ErrorBody });

export interface InventoryClient {
  /**
   * Every entry, sorted by petId. The answer is streamed and parsed as it arrives. A listing
   * the service had to cut midway (its status already 200) resolves to INCOMPLETE_RESPONSE,
   * never to a shorter array; it is not retried here: call again. With `lowStock: true`, the
   * reorder report: only the pets whose available stock is below their low-stock threshold.
   */
  listInventory(options?: CallOptions & { lowStock?: boolean }): Promise<ApiResult<InventoryItem[]>>;
  /** Experimental. Sets the pet's low-stock threshold; a crossing of it raises inventory.low_stock or inventory.restocked. */
  setLowStockThreshold(petId: PetId, threshold: number, options?: CallOptions): Promise<ApiResult<LowStockThreshold>>;
  /** Experimental. The pet's threshold; 404 LOW_STOCK_THRESHOLD_NOT_FOUND when none is set. */
  getLowStockThreshold(petId: PetId, options?: CallOptions): Promise<ApiResult<LowStockThreshold>>;
  /** Experimental. Removes the pet's threshold (204, `data` undefined), set or not. */
  removeLowStockThreshold(petId: PetId, options?: CallOptions): Promise<ApiResult<undefined>>;
  getInventoryItem(petId: PetId, options?: CallOptions): Promise<ApiResult<InventoryItem>>;
  /**
   * Experimental in the contract: its request shape may change. Sent with an Idempotency-Key
   * (default: a new random key per call; pass your own to repeat a call safely), so it is retried
   * like a GET: a compare-and-set whose answer was lost is answered by its replay, not by a 409
   * against its own write.
   */
  updateInventory(
    petId: PetId,
    update: InventoryUpdate,
    options?: CallOptions & { idempotencyKey?: string },
  ): Promise<ApiResult<InventoryItem>>;
  /**
   * Experimental. Applied exactly once per idempotency key, so it is retried like a GET: pass the
   * same key again to repeat a call whose answer was lost (default: a new random key per call).
   */
  adjustInventory(
    petId: PetId,
    adjustment: InventoryAdjustment,
    options?: CallOptions & { idempotencyKey?: string },
  ): Promise<ApiResult<InventoryItem>>;
  /**
   * Experimental. Every adjustment or none, in one request against the plan; applied exactly once
   * per idempotency key, so retried like a GET (default: a new random key per call).
   */
  adjustInventoryBatch(
    adjustments: PetAdjustment[],
    options?: CallOptions & { idempotencyKey?: string },
  ): Promise<ApiResult<AdjustedInventoryItems>>;
  /**
   * Experimental. Holds a cart's stock until it expires, all or none, exactly once per idempotency
   * key, so it is retried like a GET: pass the same key again to repeat a call whose answer was lost
   * (default: a new random key per call). 201 with the reservation.
   */
  reserveInventory(cart: ReservationRequest, options?: CallOptions & { idempotencyKey?: string }): Promise<ApiResult<Reservation>>;
  /** Experimental. The reservation, `expired` from its expiresAt on. */
  getReservation(reservationId: string, options?: CallOptions): Promise<ApiResult<Reservation>>;
  /** Experimental. The sale; committing again answers the same and takes nothing more, so it is retried like a GET. */
  commitReservation(reservationId: string, options?: CallOptions): Promise<ApiResult<CommittedReservation>>;
  /** Experimental. Gives the stock back; releasing again answers the same. */
  releaseReservation(reservationId: string, options?: CallOptions): Promise<ApiResult<Reservation>>;
  /** @deprecated The operation has a sunset date: see the Sunset and Link headers of `response`. */
  getPetById(petId: PetId, options?: CallOptions): Promise<ApiResult<Pet>>;
  /** Experimental. One page of a pet's history, oldest first; `nextCursor` is null on the last page. */
  listInventoryChanges(petId: PetId, options?: PageOptions): Promise<ApiResult<ChangesPage>>;
  /**
   * Experimental. A pet's whole history, oldest first, one change at a time: it reads page after
   * page, following `nextCursor` until it is null. A page that cannot be read (after the client's
   * retries) throws ChangesPageError, whose `cursor` resumes the history where it stopped.
   */
  allInventoryChanges(petId: PetId, options?: PageOptions): AsyncIterableIterator<InventoryChange>;
  /** Experimental. One page of the change feed: every pet's changes after `cursor`; `nextCursor` is always a cursor. */
  listInventoryChangeFeed(options?: PageOptions): Promise<ApiResult<ChangeFeedPage>>;
  /**
   * Experimental. Follows the change feed from `cursor`: yields each page's changes with the cursor
   * to resume from after them (store it with what the changes did, and pass it back on the next
   * start). It ends at the first empty page, or with `pollIntervalMs` keeps polling until `signal`
   * aborts. A page that cannot be read (after the client's retries) throws ChangesPageError, whose
   * `cursor` is the last one yielded.
   */
  followChangeFeed(options?: FollowChangeFeedOptions): AsyncIterableIterator<ChangeFeedBatch>;
}

const nonNegativeInteger = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/** A structured-field List of named windows with integer parameters; undefined when the field is absent or malformed. */
function namedWindows(value: string | null): Map<string, Map<string, number>> | undefined {
  if (value === null) return undefined;
  let list: ReturnType<typeof parseList>;
  try {
    list = parseList(value);
  } catch {
    return undefined;
  }
  const windows = new Map<string, Map<string, number>>();
  for (const [name, parameters] of list) {
    if (typeof name !== 'string') return undefined;
    const integers = new Map<string, number>();
    for (const [key, parameter] of parameters) if (nonNegativeInteger(parameter)) integers.set(key, parameter);
    windows.set(name, integers);
  }
  return windows;
}

function structuredWindows(response: Response): RateLimitWindow[] | undefined {
  const states = namedWindows(response.headers.get('RateLimit'));
  if (!states || states.size === 0) return undefined;
  const policies = namedWindows(response.headers.get('RateLimit-Policy')) ?? new Map<string, Map<string, number>>();
  const windows: RateLimitWindow[] = [];
  for (const [name, state] of states) {
    const remaining = state.get('r');
    if (remaining === undefined) return undefined;
    const policy = policies.get(name);
    windows.push({ name, remaining, resetInSeconds: state.get('t'), limit: policy?.get('q'), windowSeconds: policy?.get('w') });
  }
  return windows;
}

function rateLimitOf(response: Response, nowMs: number): RateLimit | undefined {
  const [limit, remaining, resetAt] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].map((name) =>
    response.headers.get(name),
  );
  const legacy =
    limit == null || remaining == null || resetAt == null
      ? undefined
      : { limit: Number(limit), remaining: Number(remaining), resetAt: Number(resetAt) };
  const windows = structuredWindows(response);
  if (legacy) {
    const fallback = {
      name: undefined,
      remaining: legacy.remaining,
      resetInSeconds: undefined,
      limit: legacy.limit,
      windowSeconds: undefined,
    };
    return { ...legacy, windows: windows ?? [fallback] };
  }
  // No X-RateLimit-* triple: the structured fields' window closest to exhaustion, where they say its limit and reset.
  const closest = windows?.reduce((found, window) => (window.remaining < found.remaining ? window : found));
  if (!windows || closest?.limit === undefined || closest.resetInSeconds === undefined) return undefined;
  return { limit: closest.limit, remaining: closest.remaining, resetAt: Math.floor(nowMs / 1000) + closest.resetInSeconds, windows };
}

/**
 * The contract's Error as sent. A code this version does not know (a newer server may add
 * codes, see the versioning policy) is passed on as it is; an answer that is not the contract's
 * Error at all (a proxy's HTML page, say) becomes UNEXPECTED_RESPONSE.
 */
function errorBodyOf(body: unknown, response: Response): ErrorBody {
  const candidate = body as Partial<ErrorBody> | undefined;
  if (typeof candidate?.code === 'string' && typeof candidate.message === 'string' && typeof candidate.status === 'number') {
    return { code: candidate.code as ApiErrorCode, message: candidate.message, status: candidate.status };
  }
  return {
    code: 'UNEXPECTED_RESPONSE',
    message: `HTTP ${response.status} ${response.statusText}: the answer is not the API's Error JSON.`,
    status: response.status,
  };
}

function parsedBody(text: string | undefined): { parsed: unknown } | undefined {
  try {
    return { parsed: parseJsonWithInt64(text ?? 'null') };
  } catch {
    return undefined;
  }
}

/** What a call that got no answer failed of: the caller's signal, the deadline, or the network. */
function failureWithoutAnswer(error: unknown, callerSignals: readonly AbortSignal[], deadline: AbortSignal): ErrorBody {
  if (callerSignals.some((signal) => signal.aborted)) return { code: 'ABORTED', message: 'The call was aborted by its signal.', status: 0 };
  if (deadline.aborted) return { code: 'TIMEOUT', message: 'The call did not end within its deadline (timeoutMs).', status: 0 };
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return {
    code: 'NETWORK_ERROR',
    message: `The API could not be reached (${error instanceof Error ? error.message : String(error)}${cause}).`,
    status: 0,
  };
}

/** What a streamed body that began well and then failed to parse or arrive broke off of. */
function brokenOff(error: unknown, callerSignals: readonly AbortSignal[], deadline: AbortSignal, response: Response): ErrorBody {
  const cause = failureWithoutAnswer(error, callerSignals, deadline);
  if (cause.code !== 'NETWORK_ERROR') return { ...cause, status: response.status };
  return {
    code: 'INCOMPLETE_RESPONSE',
    message: `The answer broke off before its end (${error instanceof Error ? error.message : String(error)}): the service failed midway. Call again.`,
    status: response.status,
  };
}

function randomIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

type Sent = { data?: unknown; error?: unknown; response: Response };
type SendInit = {
  signal: AbortSignal;
  fetch: (request: Request) => Promise<Response>;
  parseAs: 'text' | 'stream';
};

/** The query of a page of changes: only what was given, the server's defaults otherwise. */
function pageQuery({ limit, cursor }: PageOptions = {}): { limit?: number; cursor?: string } {
  return { ...(limit === undefined ? {} : { limit }), ...(cursor === undefined ? {} : { cursor }) };
}

/** The server's page size when a call gives none. */
const DEFAULT_PAGE_LIMIT = 100;

export function createInventoryClient(options: InventoryClientOptions): InventoryClient {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const client = createClient<paths>({ baseUrl: options.baseUrl, headers: { Authorization: `Bearer ${options.apiKey}` } });
  const retryPolicy = {
    maxAttempts: options.maxAttempts ?? 3,
    baseDelayMs: options.baseDelayMs ?? 200,
    maxDelayMs: options.maxDelayMs ?? 10_000,
    maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? 60,
    idempotent: isIdempotent,
    fetch: options.fetch ?? ((request: Request) => fetch(request)),
    sleep,
    random: options.random ?? Math.random,
    now,
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  };

  // Bodies are read as text and parsed here, so that int64 fields become exact bigints; a
  // streamed body is read element by element (readBody), so a big listing is never also one string.
  async function call<T>(
    callOptions: CallOptions | undefined,
    send: (init: SendInit) => Promise<Sent>,
    readBody?: (body: ReadableStream<Uint8Array>) => Promise<unknown>,
  ): Promise<ApiResult<T>> {
    const timeoutMs = callOptions?.timeoutMs ?? options.timeoutMs ?? 30_000;
    const callerSignals = [options.signal, callOptions?.signal].filter((signal) => signal !== undefined);
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new DOMException('The call ran out of time.', 'TimeoutError')), timeoutMs);
    const signal = AbortSignal.any([...callerSignals, deadline.signal]);
    try {
      const { data, error, response } = await send({
        signal,
        fetch: retryingFetch({ ...retryPolicy, deadlineAt: now() + timeoutMs }),
        parseAs: readBody ? 'stream' : 'text',
      });
      const retryAfter = retryAfterSeconds(response, now());
      const common = {
        status: response.status,
        rateLimit: rateLimitOf(response, now()),
        requestId: response.headers.get('X-Request-Id') ?? response.headers.get('x-amzn-RequestId') ?? undefined,
        response,
        ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
      };
      if (!response.ok) return { ...common, error: errorBodyOf(typeof error === 'string' ? parsedBody(error)?.parsed : error, response) };
      if (readBody) {
        try {
          return { ...common, data: (await readBody(data as ReadableStream<Uint8Array>)) as T };
        } catch (failure) {
          return { ...common, error: brokenOff(failure, callerSignals, deadline.signal, response) };
        }
      }
      if (response.status === 204) return { ...common, data: undefined as T };
      const body = parsedBody(data as string | undefined);
      return body ? { ...common, data: body.parsed as T } : { ...common, error: errorBodyOf(undefined, response) };
    } catch (error) {
      return {
        status: 0,
        rateLimit: undefined,
        requestId: undefined,
        response: undefined,
        error: failureWithoutAnswer(error, callerSignals, deadline.signal),
      };
    } finally {
      clearTimeout(timer);
    }
  }

  const listInventoryChanges: InventoryClient['listInventoryChanges'] = (petId, pageOptions) =>
    call(pageOptions, (init) =>
      client.GET('/inventory/{petId}/changes', { params: { path: { petId }, query: pageQuery(pageOptions) }, ...init }),
    );
  const listInventoryChangeFeed: InventoryClient['listInventoryChangeFeed'] = (pageOptions) =>
    call(pageOptions, (init) => client.GET('/inventory/changes', { params: { query: pageQuery(pageOptions) }, ...init }));

  async function* allInventoryChanges(petId: PetId, pageOptions: PageOptions = {}): AsyncIterableIterator<InventoryChange> {
    let cursor = pageOptions.cursor;
    do {
      const page = await listInventoryChanges(petId, { ...pageOptions, cursor });
      if (page.error) throw new ChangesPageError(page, cursor);
      yield* page.data.changes;
      cursor = page.data.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  async function* followChangeFeed(feedOptions: FollowChangeFeedOptions = {}): AsyncIterableIterator<ChangeFeedBatch> {
    const { pollIntervalMs, signal, timeoutMs } = feedOptions;
    const limit = feedOptions.limit ?? DEFAULT_PAGE_LIMIT;
    let cursor = feedOptions.cursor;
    while (!signal?.aborted) {
      const page = await listInventoryChangeFeed({ limit, cursor, signal, timeoutMs });
      if (page.error) {
        if (signal?.aborted) return;
        throw new ChangesPageError(page, cursor);
      }
      cursor = page.data.nextCursor;
      if (page.data.changes.length > 0) yield { changes: page.data.changes, cursor };
      if (pollIntervalMs === undefined) {
        if (page.data.changes.length === 0) return;
      } else if (page.data.changes.length < limit) {
        // Caught up: the next change is not there yet.
        try {
          await sleep(pollIntervalMs, signal);
        } catch (interrupted) {
          if (signal?.aborted) return;
          throw interrupted;
        }
      }
    }
  }

  return {
    listInventory: (callOptions) =>
      call(
        callOptions,
        (init) =>
          client.GET('/inventory', {
            ...(callOptions?.lowStock === undefined
              ? {}
              : { params: { query: { lowStock: String(callOptions.lowStock) as 'true' | 'false' } } }),
            ...init,
          }),
        (body) => {
          if (!body) throw new SyntaxError('The listing answered without a body.');
          return readJsonArrayWithInt64(body);
        },
      ),
    getInventoryItem: (petId, callOptions) =>
      call(callOptions, (init) => client.GET('/inventory/{petId}', { params: { path: { petId } }, ...init })),
    updateInventory: (petId, update, callOptions) => {
      const idempotencyKey = callOptions?.idempotencyKey ?? randomIdempotencyKey();
      return call(callOptions, (init) =>
        client.PATCH('/inventory/{petId}', {
          params: { path: { petId }, header: { 'Idempotency-Key': idempotencyKey } },
          body: update,
          ...init,
        }),
      );
    },
    adjustInventory: (petId, adjustment, callOptions) => {
      const idempotencyKey = callOptions?.idempotencyKey ?? randomIdempotencyKey();
      return call(callOptions, (init) =>
        client.POST('/inventory/{petId}/adjustments', {
          params: { path: { petId }, header: { 'Idempotency-Key': idempotencyKey } },
          body: adjustment,
          ...init,
        }),
      );
    },
    adjustInventoryBatch: (adjustments, callOptions) => {
      const idempotencyKey = callOptions?.idempotencyKey ?? randomIdempotencyKey();
      return call(callOptions, (init) =>
        client.POST('/inventory/adjustments', {
          params: { header: { 'Idempotency-Key': idempotencyKey } },
          body: { adjustments },
          // Each petId is a bigint, which JSON.stringify refuses: written digit for digit instead.
          bodySerializer: stringifyJsonWithInt64,
          ...init,
        }),
      );
    },
    setLowStockThreshold: (petId, threshold, callOptions) =>
      call(callOptions, (init) =>
        client.PUT('/inventory/{petId}/low-stock-threshold', {
          params: { path: { petId } },
          body: { threshold },
          // The path's petId is a bigint; the body holds none, but the same serializer keeps one writer of bodies.
          bodySerializer: stringifyJsonWithInt64,
          ...init,
        }),
      ),
    getLowStockThreshold: (petId, callOptions) =>
      call(callOptions, (init) => client.GET('/inventory/{petId}/low-stock-threshold', { params: { path: { petId } }, ...init })),
    removeLowStockThreshold: (petId, callOptions) =>
      call(callOptions, (init) => client.DELETE('/inventory/{petId}/low-stock-threshold', { params: { path: { petId } }, ...init })),
    reserveInventory: (cart, callOptions) => {
      const idempotencyKey = callOptions?.idempotencyKey ?? randomIdempotencyKey();
      return call(callOptions, (init) =>
        client.POST('/inventory/reservations', {
          params: { header: { 'Idempotency-Key': idempotencyKey } },
          body: cart,
          // Each petId is a bigint, which JSON.stringify refuses: written digit for digit instead.
          bodySerializer: stringifyJsonWithInt64,
          ...init,
        }),
      );
    },
    getReservation: (reservationId, callOptions) =>
      call(callOptions, (init) => client.GET('/inventory/reservations/{reservationId}', { params: { path: { reservationId } }, ...init })),
    commitReservation: (reservationId, callOptions) =>
      call(callOptions, (init) =>
        client.POST('/inventory/reservations/{reservationId}/commit', { params: { path: { reservationId } }, ...init }),
      ),
    releaseReservation: (reservationId, callOptions) =>
      call(callOptions, (init) =>
        client.DELETE('/inventory/reservations/{reservationId}', { params: { path: { reservationId } }, ...init }),
      ),
    getPetById: (petId, callOptions) => call(callOptions, (init) => client.GET('/pets/{petId}', { params: { path: { petId } }, ...init })),
    listInventoryChanges,
    allInventoryChanges,
    listInventoryChangeFeed,
    followChangeFeed,
  };
}
