import { readConfig } from '../config.ts';
import { createDependencies } from '../dependencies.ts';
import { createHealthHandler } from '../handlers/health-handler.ts';

export const handler = createHealthHandler(createDependencies(readConfig()));
