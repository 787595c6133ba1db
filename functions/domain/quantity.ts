// Without zod, so that functions which only need the bound (adjustments, in every function's wiring) load no schema library.

/** The largest stock count: int32, what clients in any language can hold. */
export const MAX_QUANTITY = 2_147_483_647;
