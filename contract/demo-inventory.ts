import type { InventoryCount } from '../functions/domain/schemas.ts';

/** The demo inventory: what `npm start` seeds an empty store with, and the entries the contract's examples show. */
export const DEMO_INVENTORY: readonly InventoryCount[] = [
  { petId: 1n, quantity: 12, status: 'available' },
  { petId: 2n, quantity: 3, status: 'available' },
  { petId: 3n, quantity: 0, status: 'sold' },
  { petId: 4n, quantity: 1, status: 'pending' },
  { petId: 5n, quantity: 7, status: 'available' },
  // Above 2^53: shows that ids keep every digit on the way through.
  { petId: 9_007_199_254_740_993n, quantity: 2, status: 'available' },
];
