import { CALL_BOUNDS, createDocumentClient } from '../adapters/dynamodb/document-client.ts';
import type { ServiceConfig } from '../config.ts';

/** The store's two clients: one for the data, and one bounded for counting, which fails open quickly. */
export function createStoreClients(config: Pick<ServiceConfig, 'dynamodbEndpoint'>) {
  const endpoint = config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint } : {};
  const client = createDocumentClient(endpoint);
  const countingClient = createDocumentClient({ ...endpoint, bounds: CALL_BOUNDS.counting });
  return {
    client,
    countingClient,
    close(): void {
      client.destroy();
      countingClient.destroy();
    },
  };
}

export type StoreClients = ReturnType<typeof createStoreClients>;
