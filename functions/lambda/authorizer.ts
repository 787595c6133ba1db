import { readConfig } from '../config.ts';
import { createAuthorizerHandler } from '../handlers/authorizer-handler.ts';
import { apiKeysPart } from '../parts/api-keys.ts';
import { failedAuthenticationsPart } from '../parts/failed-authentications.ts';
import { buildParts } from '../parts/part.ts';
import { createStoreClients } from '../parts/store-clients.ts';

const config = readConfig();

export const handler = createAuthorizerHandler(
  buildParts({ apiKeys: apiKeysPart, failedAuthentications: failedAuthenticationsPart }, { stores: createStoreClients(config), config }),
);
