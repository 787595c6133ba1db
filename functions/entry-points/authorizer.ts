import { readConfig } from '../config.ts';
import { createDependencies } from '../dependencies.ts';
import { createAuthorizerHandler } from '../handlers/authorizer-handler.ts';

export const handler = createAuthorizerHandler(createDependencies(readConfig()));
