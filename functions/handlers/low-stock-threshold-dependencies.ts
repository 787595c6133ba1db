import type { LowStockThresholdRepository } from '../domain/low-stock.ts';
import type { UsageLimiter } from '../domain/usage-limits.ts';

/** What the low-stock threshold's handlers are built from. */
export interface LowStockThresholdHandlerDependencies {
  thresholds: LowStockThresholdRepository;
  limiter: UsageLimiter;
}
