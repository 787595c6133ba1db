/**
 * The baseline plus zod, used the way the service uses it: not a target, an attribution.
 * The gap between this and the baseline is what importing zod alone costs at cold start.
 */
import { z } from 'zod';
import { handler as baselineHandler } from './baseline-handler.ts';

const InventoryUpdate = z.strictObject({ quantity: z.int().min(0) });

export const handler = async () => {
  InventoryUpdate.parse({ quantity: 1 });
  return baselineHandler();
};
