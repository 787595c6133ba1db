import { getPetById as getPet } from '../domain/pets.ts';
import { jsonResponse } from '../http/json.ts';
import { defineOperation } from '../http/operation.ts';
import { inventoryPart } from '../parts/inventory.ts';
import { petsSunsetPart } from '../parts/pets-sunset.ts';

/** GET /pets/{petId}: deprecated, so every answer carries Deprecation, Sunset (this stage's) and Link; read while the request is counted. */
export const getPetById = defineOperation(
  'getPetById',
  {
    parts: { inventory: inventoryPart, petsSunsetAt: petsSunsetPart },
    sunsetAt: ({ petsSunsetAt }) => petsSunsetAt,
  },
  async ({ path }, { inventory }) => {
    return jsonResponse(200, await getPet(inventory, path.petId));
  },
);
