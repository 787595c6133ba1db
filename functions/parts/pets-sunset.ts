import { readPetsSunset } from '../config.ts';
import type { Part } from './part.ts';

/** When GET /pets/{petId} may stop answering, in this stage (PETS_SUNSET_DATE; see readPetsSunset). */
export const petsSunsetPart: Part<Date> = () => readPetsSunset();
