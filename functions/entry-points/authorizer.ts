import { createApiKeyRepository } from '../adapters/dynamodb/api-key-repository.ts';
import { readConfig } from '../config.ts';
import { createFailedAuthentications, createStoreClients } from '../dependencies.ts';
import { createAuthorizerHandler } from '../handlers/authorizer-handler.ts';

const config = readConfig();
const store = createStoreClients(config);

export const handler = createAuthorizerHandler({
  apiKeys: createApiKeyRepository(store.client, config.apiKeysTable),
  failedAuthentications: createFailedAuthentications(store, config),
});
