import { createUsageCounterRepository } from '../adapters/dynamodb/usage-counter-repository.ts';
import { UsageLimiter } from '../domain/usage-limits.ts';
import { logger, SERVICE_METRICS } from '../logger.ts';
import type { Part } from './part.ts';

/** A key's plan limits, counted in the usage counters table; a counting outage is served and counted as a metric. */
export const planLimiterPart: Part<UsageLimiter> = ({ stores, config }) =>
  new UsageLimiter(createUsageCounterRepository(stores.countingClient, config.usageCountersTable), config.banPolicy, Date.now, () =>
    logger.metric(SERVICE_METRICS.usageCountingUnavailable, 1),
  );
