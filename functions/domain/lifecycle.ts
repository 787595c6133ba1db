/**
 * The lifecycle signals of SPEC section 9: what an operation's stability and deprecation are.
 * Each operation's own are in the operation registry (functions/routes.ts), which the OpenAPI
 * document and the response headers both read.
 */

/** Where clients read about versions, deprecations and sunsets. The host is a placeholder, like the servers in openapi.json. */
export const API_DOCUMENTATION_URL = 'https://docs.petstore.example/v1';

/**
 * SPEC 9: an operation's request shape may still change while it is `experimental` (or `beta`);
 * a `stable` one's does not. An operation that is not stable says so in X-API-Stability.
 */
export type OperationStability = 'stable' | 'beta' | 'experimental';

export interface Deprecation {
  /** When the operation became deprecated (RFC 9745 `Deprecation`). */
  deprecatedAt: Date;
  /** After this moment the operation may stop answering (RFC 8594 `Sunset`); a stage may set its own. */
  sunsetAt: Date;
  /** A page for people: why the operation goes, what to use instead, until when it answers. */
  documentation: string;
}
