// No zod here: the authorizer needs plan names on every cold start, and zod's import costs ~18 ms.
export const PLAN_NAMES = ['free', 'pro', 'business', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export function isPlanName(value: unknown): value is PlanName {
  return typeof value === 'string' && (PLAN_NAMES as readonly string[]).includes(value);
}

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

/** The limits in force for a key: its plan's, or for enterprise the ones agreed for it. */
export function limitsFor(plan: PlanName, custom?: PlanLimits): PlanLimits {
  if (plan !== 'enterprise') return PLAN_LIMITS[plan];
  if (!custom) throw new Error('An enterprise key needs its own perMinute and perDay limits.');
  return custom;
}

export interface EdgeBackstop {
  /** Steady requests per second API Gateway admits for a key. */
  rateLimit: number;
  /** Requests it admits at once. */
  burstLimit: number;
  /** Requests per day. */
  quotaPerDay: number;
}

/**
 * The usage plan API Gateway enforces for a plan, as a backstop behind our own counters, which
 * give the exact answers and headers. Its throttle is never tighter than the contract: fixed
 * minute windows admit a whole minute's allowance at the end of one minute and another at the
 * start of the next, so the burst holds two, and the steady rate refills a minute's worth
 * within the minute. The daily quota is the plan's own.
 */
export function edgeBackstop(limits: PlanLimits): EdgeBackstop {
  return { rateLimit: Math.ceil(limits.perMinute / 60), burstLimit: 2 * limits.perMinute, quotaPerDay: limits.perDay };
}
