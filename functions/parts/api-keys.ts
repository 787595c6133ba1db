import { createApiKeyRepository } from '../adapters/dynamodb/api-key-repository.ts';
import type { Part } from './part.ts';

/** The API keys, looked up by the hash of the key (and, for the tools, administered). */
export const apiKeysPart: Part<ReturnType<typeof createApiKeyRepository>> = ({ stores, config }) =>
  createApiKeyRepository(stores.client, config.apiKeysTable);
