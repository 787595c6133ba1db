import { z } from 'zod';

export const PlanName = z.enum(['free', 'pro', 'business', 'enterprise']);
export type PlanName = z.infer<typeof PlanName>;

export interface PlanLimits {
  perMinute: number;
  perDay: number;
}

/** Section 8 of the spec. Enterprise limits are agreed per key and stored on the key. */
export const PLAN_LIMITS: Readonly<Record<Exclude<PlanName, 'enterprise'>, PlanLimits>> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};

export const CustomLimits = z.strictObject({
  perMinute: z.int().min(1).max(1_000_000),
  perDay: z.int().min(1).max(1_000_000_000),
});

/** The limits in force for a key: its plan's, or for enterprise the ones agreed for it. */
export function limitsFor(plan: PlanName, custom?: PlanLimits): PlanLimits {
  if (plan !== 'enterprise') return PLAN_LIMITS[plan];
  if (!custom) throw new Error('An enterprise key needs its own perMinute and perDay limits.');
  return custom;
}
