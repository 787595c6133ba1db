import { readConfig, readPetsSunset } from './config.ts';
import { createDependencies } from './dependencies.ts';
import { createGetPetHandler } from './handlers/pet-handlers.ts';

export const handler = createGetPetHandler({ ...createDependencies(readConfig()), petsSunsetAt: readPetsSunset() });
