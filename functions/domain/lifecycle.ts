/**
 * The lifecycle signals of SPEC section 9, once: the OpenAPI document and the response
 * headers both read them from here.
 */

/** Where clients read about versions, deprecations and sunsets. The host is a placeholder, like the servers in openapi.json. */
export const API_DOCUMENTATION_URL = 'https://docs.petstore.example/v1';

/**
 * Operations whose request shape may still change (SPEC 9) say so in X-API-Stability. SPEC 9
 * also names `beta`; no operation is beta yet, so neither the type nor openapi.json offers it.
 */
export type OperationStability = 'experimental';

export interface Deprecation {
  /** When the operation became deprecated (RFC 9745 `Deprecation`). */
  deprecatedAt: Date;
  /** After this moment the operation may stop answering (RFC 8594 `Sunset`). */
  sunsetAt: Date;
  /** A page for people: why the operation goes, what to use instead, until when it answers. */
  documentation: string;
}

/** GET /pets/{petId}: deprecated since version 1.0.0 of the contract; the sunset is set per stage (PETS_SUNSET_DATE). */
export const GET_PET_BY_ID_DEPRECATED_AT = new Date('2026-01-01T00:00:00Z');
export const GET_PET_BY_ID_DEFAULT_SUNSET_AT = new Date('2027-07-01T00:00:00Z');
export const GET_PET_BY_ID_DEPRECATION_NOTICE = `${API_DOCUMENTATION_URL}/deprecations#get-pet-by-id`;

export function getPetByIdDeprecation(sunsetAt: Date = GET_PET_BY_ID_DEFAULT_SUNSET_AT): Deprecation {
  return { deprecatedAt: GET_PET_BY_ID_DEPRECATED_AT, sunsetAt, documentation: GET_PET_BY_ID_DEPRECATION_NOTICE };
}
