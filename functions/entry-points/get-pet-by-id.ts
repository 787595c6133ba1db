import { readConfig, readPetsSunset } from '../config.ts';
import { createDependencies } from '../dependencies.ts';
import { createGetPetByIdHandler } from '../handlers/get-pet-by-id-handler.ts';

export const handler = createGetPetByIdHandler({ ...createDependencies(readConfig()), petsSunsetAt: readPetsSunset() });
