import { createInventoryClient, type InventoryClient } from '../../client/index.ts';

/**
 * A typed client patient enough to outlast a restart of the server on `port`: each call retries
 * network failures (with its own Idempotency-Key where it sends one) for up to two minutes.
 */
export function patientClient(port: number, apiKey: string): InventoryClient {
  return createInventoryClient({
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey,
    maxAttempts: 60,
    baseDelayMs: 100,
    maxDelayMs: 1_000,
    timeoutMs: 120_000,
  });
}
