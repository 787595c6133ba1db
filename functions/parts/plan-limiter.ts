import { createUsageCounterRepository } from '../adapters/dynamodb/usage-counter-repository.ts';
import { PlanLimiter } from '../domain/plan-limiter.ts';
import { logger, SERVICE_METRICS } from '../logger.ts';
import type { Part } from './part.ts';

/** A key's plan limits, counted in the usage counters table; a counting outage is served and counted as a metric. */
export const planLimiterPart: Part<PlanLimiter> = ({ stores, config }) =>
  new PlanLimiter(createUsageCounterRepository(stores.countingClient, config.usageCountersTable), config.banPolicy, Date.now, () =>
    logger.metric(SERVICE_METRICS.usageCountingUnavailable, 1),
  );
