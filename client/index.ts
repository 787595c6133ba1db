import createClient from 'openapi-fetch';
import { parseJsonWithInt64 } from './int64-json.ts';
import { defaultSleep, isIdempotent, retryAfterSeconds, retryingFetch, type RetryEvent } from './retry.ts';
import type { components, paths } from './schema.d.ts';

/**
 * A typed client for the Pet Store Inventory API, generated from openapi.json (schema.d.ts)
 * and sending its requests through openapi-fetch. It retries by the contract's rules (see
 * retry.ts), keeps int64 ids exact as bigint, and hands every caller the rate-limit headers.
 */

export type InventoryItem = components['schemas']['InventoryItem'];
export type InventoryUpdate = components['schemas']['InventoryUpdate'];
export type Pet = components['schemas']['Pet'];
export type PetId = components['schemas']['PetId'];
export type ErrorBody = components['schemas']['Error'];
export type { RetryEvent } from './retry.ts';
export type { components, paths } from './schema.d.ts';

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
  fetch?: (request: Request) => Promise<Response>;
  /** Injectable for tests and schedulers: how to wait, where jitter comes from, what time it is. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  onRetry?: (retry: RetryEvent) => void;
}

/** The X-RateLimit-* headers of the last answer (absent on a 401, which API Gateway gives before the key is known). */
export interface RateLimit {
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  resetAt: number;
}

interface Answer {
  status: number;
  /** X-Request-Id: the service's id of the request that got this answer; quote it when reporting a failure. */
  requestId: string | undefined;
  /** Undefined on answers that carry no X-RateLimit-* headers (a 401, an answer of API Gateway's own). */
  rateLimit: RateLimit | undefined;
  /** From Retry-After, whoever sent it (429 and 503). */
  retryAfterSeconds?: number;
  response: Response;
}
/** Like openapi-fetch: `data` on success, `error` (the contract's Error body) otherwise. */
export type ApiResult<T> = Answer & ({ data: T; error?: undefined } | { data?: undefined; error: ErrorBody });

export interface InventoryClient {
  listInventory(): Promise<ApiResult<InventoryItem[]>>;
  /** Experimental in the contract: its request shape may change. Retried like a GET, since the quantity is absolute. */
  updateInventory(petId: PetId, update: InventoryUpdate): Promise<ApiResult<InventoryItem>>;
  /** @deprecated The operation has a sunset date: see the Sunset and Link headers of `response`. */
  getPetById(petId: PetId): Promise<ApiResult<Pet>>;
}

function rateLimitOf(response: Response): RateLimit | undefined {
  const [limit, remaining, resetAt] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].map((name) => response.headers.get(name));
  if (limit == null || remaining == null || resetAt == null) return undefined;
  return { limit: Number(limit), remaining: Number(remaining), resetAt: Number(resetAt) };
}

/** An answer that is not the contract's Error (a proxy's HTML page, say) is still reported in its shape. */
function errorBodyOf(error: unknown, response: Response): ErrorBody {
  const body = error as Partial<ErrorBody> | undefined;
  if (typeof body?.code === 'string' && typeof body.message === 'string' && typeof body.status === 'number') return body as ErrorBody;
  return { code: 'UNEXPECTED_RESPONSE', message: typeof error === 'string' ? error : response.statusText, status: response.status };
}

export function createInventoryClient(options: InventoryClientOptions): InventoryClient {
  const now = options.now ?? Date.now;
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch({
      maxAttempts: options.maxAttempts ?? 3,
      baseDelayMs: options.baseDelayMs ?? 200,
      maxDelayMs: options.maxDelayMs ?? 10_000,
      maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? 60,
      idempotent: isIdempotent,
      fetch: options.fetch ?? ((request) => fetch(request)),
      sleep: options.sleep ?? defaultSleep,
      random: options.random ?? Math.random,
      now,
      ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    }),
  });

  // Bodies are read as text and parsed here, so that int64 fields become exact bigints.
  async function answer<T>(call: Promise<{ data?: string; error?: unknown; response: Response }>): Promise<ApiResult<T>> {
    const { data, error, response } = await call;
    const retryAfter = retryAfterSeconds(response, now());
    const common = { status: response.status, requestId: response.headers.get('X-Request-Id') ?? undefined, rateLimit: rateLimitOf(response), response, ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }) };
    return response.ok ? { ...common, data: parseJsonWithInt64(data ?? 'null') as T } : { ...common, error: errorBodyOf(error, response) };
  }

  return {
    listInventory: () => answer(client.GET('/inventory', { parseAs: 'text' })),
    updateInventory: (petId, update) => answer(client.PATCH('/inventory/{petId}', { params: { path: { petId } }, body: update, parseAs: 'text' })),
    getPetById: (petId) => answer(client.GET('/pets/{petId}', { params: { path: { petId } }, parseAs: 'text' })),
  };
}
